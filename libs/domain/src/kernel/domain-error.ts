/** Every refusal the domain can give. The API maps each code to an HTTP status (docs/design.md#errors). */
export type DomainErrorCode =
  | 'invalid_amount'
  | 'invalid_request'
  | 'amount_out_of_range'
  | 'insufficient_funds'
  | 'exposure_limit_exceeded'
  | 'customer_pending_limit'
  | 'limits_not_configured'
  | 'balance_unavailable'
  | 'reservation_not_found'
  | 'payout_already_exists'
  | 'payout_not_found'
  | 'duplicate_merchant_reference'
  | 'not_cancellable'
  | 'not_resumable'
  | 'wrong_delivery'
  | 'customer_mismatch'
  | 'link_unavailable'
  | 'handoff_invalid'
  | 'invalid_transition'
  | 'not_yet_expired'
  | 'float_insufficient'
  | 'not_found'
  | 'unsupported_currency'
  | 'method_not_available'
  | 'order_not_payable';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
