import { DomainErrorCode } from '@payouts/domain';

/**
 * HTTP status of each domain refusal, as docs/design.md#error-codes-and-statuses lists them. Codes
 * the merchant must never see under their own name are renamed.
 */
export const DOMAIN_ERROR_STATUS: Record<DomainErrorCode, { status: number; code?: string }> = {
  invalid_amount: { status: 400 },
  invalid_request: { status: 400 },
  amount_out_of_range: { status: 422 },
  insufficient_funds: { status: 409 },
  balance_unavailable: { status: 409 },
  exposure_limit_exceeded: { status: 422 },
  customer_pending_limit: { status: 422 },
  // The account's ledger has no fee or limits yet. Get Payout Balance then answers `available: null`
  // with a reason, and Create Payout answers balance_unavailable then (docs/design.md#errors).
  limits_not_configured: { status: 409, code: 'balance_unavailable' },
  reservation_not_found: { status: 404, code: 'not_found' },
  payout_already_exists: { status: 409 },
  payout_not_found: { status: 404, code: 'not_found' },
  duplicate_merchant_reference: { status: 409 },
  not_cancellable: { status: 409 },
  not_resumable: { status: 409 },
  wrong_delivery: { status: 409 },
  customer_mismatch: { status: 403 },
  link_unavailable: { status: 409 },
  handoff_invalid: { status: 410 },
  invalid_transition: { status: 409 },
  not_yet_expired: { status: 409 },
  // The worker's own refusal (the payout waits for a float top-up); no endpoint answers it.
  float_insufficient: { status: 409 },
  // Checkout (docs/design.md#queries): an order the caller cannot see is not found, whoever owns it.
  not_found: { status: 404 },
  unsupported_currency: { status: 400 },
  method_not_available: { status: 403 },
  // A paid or expired order, or one past expires_at: the payer's attempt changes nothing.
  order_not_payable: { status: 409 },
};
