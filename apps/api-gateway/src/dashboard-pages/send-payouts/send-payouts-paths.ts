import { randomBytes } from 'node:crypto';
import { DASHBOARD_PATHS } from '@payouts/web';

const LIST = DASHBOARD_PATHS.sendPayouts;

/** The Send payouts pages' addresses; each POST path is also its idempotency scope's path. */
export const SEND_PAYOUTS_PATHS = {
  list: LIST,
  create: `${LIST}/new`,
  payout: (payoutId: string) => `${LIST}/${payoutId}`,
  cancel: (payoutId: string) => `${LIST}/${payoutId}/cancel`,
  rotateLink: (payoutId: string) => `${LIST}/${payoutId}/rotate-link`,
} as const;

/**
 * The hidden field carrying a form's idempotency key: the API's `Idempotency-Key`, made once per
 * rendered form, so sending the same form twice does its work once.
 */
export const IDEMPOTENCY_FIELD = 'idempotency_key';

/** A fresh key for a rendered form: 128 random bits (within the API's 1–255 printable characters). */
export function newFormKey(): string {
  return `dash_${randomBytes(16).toString('base64url')}`;
}
