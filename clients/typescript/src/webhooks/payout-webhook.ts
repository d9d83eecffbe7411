import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The receiver's side of the payout webhook (docs/webhooks.md#signature in the service's
 * repository): parse `X-Service-Payout-Signature`, check the timestamp is within the tolerance,
 * recompute the HMAC over `<t>.<raw body>` and compare it in constant time. Depends on node:crypto
 * only, so it can be copied into a merchant's code as is. The service's own `libs/webhooks`
 * re-exports it: there is one implementation.
 */

/** The header that carries the payout webhook's signature. */
export const PAYOUT_SIGNATURE_HEADER = 'X-Service-Payout-Signature';
/** A timestamp more than 5 minutes away from the receiver's clock is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
/** A header longer than this is not the service's (a few signatures at most); refused before parsing. */
const MAX_HEADER_LENGTH = 1_024;

export type SignatureFailure =
  'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch';

export class WebhookSignatureError extends Error {
  constructor(
    readonly reason: SignatureFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export interface ParsedSignatureHeader {
  /** Unix seconds. */
  timestamp: number;
  /** Every `v1` value, lowercase hex (more than one while a secret is being replaced). */
  signatures: string[];
}

/** Splits `t=<unix>,v1=<hex>[,v1=<hex>…]`; unknown keys (a later scheme) are ignored. */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader {
  if (header === null || header === undefined || header.trim() === '') {
    throw new WebhookSignatureError('missing_header', 'the signature header is missing');
  }
  if (header.length > MAX_HEADER_LENGTH) {
    throw new WebhookSignatureError('malformed_header', 'the signature header is too long');
  }
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) throw new WebhookSignatureError('malformed_header', 'expected key=value pairs');
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') {
      // Twice would let an attacker pick which one a sloppy parser reads.
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) {
        throw new WebhookSignatureError('malformed_header', 't must appear once, as unix seconds');
      }
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) {
        throw new WebhookSignatureError('malformed_header', 'v1 must be 64 hex characters');
      }
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined) throw new WebhookSignatureError('malformed_header', 't is missing');
  if (signatures.length === 0) throw new WebhookSignatureError('malformed_header', 'v1 is missing');
  return { timestamp, signatures };
}

export interface VerifyOptions {
  /** Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The receiver's current time; default now. */
  now?: Date;
}

/**
 * Throws WebhookSignatureError (with its `reason`) unless the header carries a valid signature of
 * this exact body (the raw bytes as received, never re-serialised JSON) made with `secret` (the
 * whole `whsec_…` text) within the tolerance. Accepts if any `v1` matches: during the 24 hours
 * after a rotation the header carries one per secret. Returns the signature's timestamp.
 */
export function verifyPayoutWebhook(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): { timestamp: number } {
  const { timestamp, signatures } = parseSignatureHeader(header);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  // Both directions: a timestamp far in the future is as suspicious as an old one.
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookSignatureError(
      'timestamp_out_of_tolerance',
      `the signature timestamp is more than ${tolerance} seconds from now`,
    );
  }
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestamp}.`, 'utf8')
    .update(rawBody)
    .digest();
  let matched = false;
  for (const signature of signatures) {
    // Every candidate is compared (no early exit) in constant time over equal-length buffers.
    if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) matched = true;
  }
  if (!matched) {
    throw new WebhookSignatureError('signature_mismatch', 'no signature matches the body and the secret');
  }
  return { timestamp };
}
