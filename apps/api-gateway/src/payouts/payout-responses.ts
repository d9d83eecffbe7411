import type { Environment, PayoutState } from '@payouts/domain';

type ExistingPayout = Exclude<PayoutState, { status: 'none' }>;

/** Where the recipient goes: the claim page (link) or the one-time handoff (redirect). */
export function payoutUrl(
  baseUrl: string,
  environment: Environment,
  delivery: 'link' | 'redirect',
  token: string,
): string {
  const prefix = environment === 'sandbox' ? '/sandbox' : '';
  return `${baseUrl}${prefix}/${delivery === 'link' ? 'claim' : 'handoff'}/${token}`;
}

/** Create Payout's response (spec 4.2). */
export function createPayoutResponse(
  payout: ExistingPayout,
  url: string | null,
  accessLinkExpiresAt: string,
) {
  return {
    payout_id: payout.payoutId,
    status: payout.status,
    status_version: payout.statusVersion,
    amount: payout.amount,
    fee: payout.fee,
    total_reserved: payout.totalReserved,
    currency: payout.currency,
    funds_released: payout.fundsReleased,
    payout_url: url,
    access_link_expires_at: accessLinkExpiresAt,
    payout_expires_at: payout.payoutExpiresAt,
  };
}

/** The merchant view (spec 2.2) straight from the aggregate, for commands that return a payout. */
export function payoutMerchantView(payout: ExistingPayout) {
  return {
    payout_id: payout.payoutId,
    status: payout.status,
    status_version: payout.statusVersion,
    amount: payout.amount,
    fee: payout.fee,
    total_reserved: payout.totalReserved,
    currency: payout.currency,
    funds_released: payout.fundsReleased,
    merchant_reference: payout.merchantReference,
    customer_id: payout.customerId,
    delivery: payout.delivery,
    source: payout.source,
    case_reference: payout.caseReference,
    selected_method: payout.selectedMethod,
    safe_reason: payout.safeReason,
    receipt_reference: payout.receiptReference,
    created_at: payout.createdAt,
    accepted_at: payout.acceptedAt,
    payout_expires_at: payout.payoutExpiresAt,
    updated_at: payout.updatedAt,
  };
}
