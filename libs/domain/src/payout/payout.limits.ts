import { DAY_MS, HOUR_MS, MINUTE_MS } from '../kernel/time';
import { PayoutDelivery } from './payout.events';

/** How long an unclaimed payout waits for its recipient (docs/design.md#delivery-links-and-expiry). */
export const PAYOUT_EXPIRY_MS: Record<PayoutDelivery, number> = {
  link: 7 * DAY_MS,
  redirect: 24 * HOUR_MS,
};

/**
 * A redirect handoff lives 10 minutes, single use, and never past payout_expires_at
 * (docs/design.md#delivery-links-and-expiry).
 */
export const REDIRECT_HANDOFF_MS = 10 * MINUTE_MS;

/** Text limits of Create Payout in characters (docs/design.md#limits), keyed by the API's parameter name. */
export const PAYOUT_TEXT_LIMITS = {
  merchant_reference: 191,
  customer_id: 191,
  case_reference: 191,
  customer_email: 255,
  description: 255,
  original_payment_id: 64,
} as const;

export const RECEIPT_PREFIX = 'rcpt_';
