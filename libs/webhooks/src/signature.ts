import { createHmac, randomBytes } from 'node:crypto';

/** The payout webhook's signature header (docs/design.md#signature); the checkout webhook has its own. */
export const SIGNATURE_HEADER = 'X-Service-Payout-Signature';

/** Prefix of payout webhook signing secrets; the whole text, prefix included, is the HMAC key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes, base64url (43 characters) after the prefix. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * HMAC-SHA256, keyed with the secret exactly as shown to the merchant (UTF-8), over the text
 * `<t>.<raw body>`, as lowercase hex (docs/webhooks.md#signature). A pure function: the same inputs
 * always give the same signature, which is what the published test vectors rely on.
 */
export function computeSignature(secret: string, timestampSeconds: number, rawBody: string | Buffer): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('the signature timestamp must be a non-negative whole number of seconds');
  }
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestampSeconds}.`, 'utf8')
    .update(rawBody)
    .digest('hex');
}

/**
 * The header value `t=<unix seconds>,v1=<hex>`. Each attempt calls this again with a fresh `t`.
 * Given several secrets (the newest first: during the overlap after a rotation), one `v1` each, in
 * that order, over the same `t` and body: `t=…,v1=<new>,v1=<old>`.
 */
export function signatureHeaderValue(
  secrets: string | readonly string[],
  timestampSeconds: number,
  rawBody: string | Buffer,
): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (list.length === 0) throw new RangeError('at least one signing secret is needed');
  const signatures = list.map((secret) => `,v1=${computeSignature(secret, timestampSeconds, rawBody)}`);
  return `t=${timestampSeconds}${signatures.join('')}`;
}
