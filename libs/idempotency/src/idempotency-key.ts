import { hash } from 'node:crypto';

/**
 * An Idempotency-Key (ARCHITECTURE 3): 1 to 255 visible ASCII characters (0x20-0x7E). Spaces are
 * allowed inside but not at either end, where proxies and header parsers trim them; control
 * characters and anything outside ASCII are refused.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E](?:[\x20-\x7E]{0,253}[\x21-\x7E])?$/;

/** Keys (and their stored answers) are kept this long after their first use, then purged. */
export const IDEMPOTENCY_RETENTION_DAYS = 30;

/**
 * SHA-256 (hex) of the canonical JSON of `{ body, method, path }`, stored with the key so that the
 * same key sent with other inputs is detected (formance). The method is upper-cased; the body is
 * serialised as JSON.stringify would (toJSON honoured, undefined members dropped, undefined array
 * items and non-finite numbers as null, no body as null) with object keys sorted by UTF-16 code
 * unit, as in RFC 8785, so the order in which a client sent the members does not matter.
 */
export function requestHash(method: string, path: string, body: unknown): string {
  // No body hashes as a JSON null body, as it does at the top level of canonicalJson.
  const canonical = canonicalJson({ body: body ?? null, method: method.toUpperCase(), path });
  return hash('sha256', canonical, 'hex');
}

/** JSON with object keys sorted; throws on cycles and BigInt, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return serialise(value, new Set()) ?? 'null';
}

function serialise(input: unknown, ancestors: Set<object>): string | undefined {
  let value = input;
  if (typeof value === 'object' && value !== null && typeof (value as Jsonable).toJSON === 'function') {
    value = (value as Jsonable).toJSON();
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('requestHash: a BigInt has no JSON form');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object': {
      if (value === null) return 'null';
      if (ancestors.has(value)) throw new TypeError('requestHash: the body is cyclic');
      ancestors.add(value);
      try {
        if (Array.isArray(value)) {
          return `[${value.map((item: unknown) => serialise(item, ancestors) ?? 'null').join(',')}]`;
        }
        const record = value as Record<string, unknown>;
        const members: string[] = [];
        for (const key of Object.keys(record).sort()) {
          const member = serialise(record[key], ancestors);
          if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
        }
        return `{${members.join(',')}}`;
      } finally {
        ancestors.delete(value);
      }
    }
  }
}

interface Jsonable {
  toJSON(): unknown;
}
