import { hash } from 'node:crypto';
import { canonicalJson } from '@payouts/domain';

/**
 * An Idempotency-Key (docs/design.md#idempotency): 1 to 255 visible ASCII characters (0x20-0x7E). Spaces are
 * allowed inside but not at either end, where proxies and header parsers trim them; control
 * characters and anything outside ASCII are refused.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E](?:[\x20-\x7E]{0,253}[\x21-\x7E])?$/;

/** Keys (and their stored answers) are kept this long after their first use, then purged. */
export const IDEMPOTENCY_RETENTION_DAYS = 30;

/**
 * SHA-256 (hex) of the canonical JSON (libs/domain, canonical-json.ts: object keys sorted by UTF-16
 * code unit, as in RFC 8785) of `{ body, method, path }`, stored with the key so that the same key
 * sent with other inputs is detected (formance). The method is upper-cased, and no body hashes as
 * a null body. The order in which a client sent the members does not matter. A body is what the
 * JSON parser made of the request (or a route's own object of such values); anything JSON could
 * not carry (a Date, a cycle) is refused with a TypeError.
 */
export function requestHash(method: string, path: string, body: unknown): string {
  const canonical = canonicalJson({ body: body ?? null, method: method.toUpperCase(), path });
  return hash('sha256', canonical, 'hex');
}
