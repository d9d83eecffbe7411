import type { Environment, PayoutState } from '@payouts/domain';
import type { PayoutMerchantView } from '@payouts/read-models';

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

/**
 * The fields every payout answer starts with: identity, status and money. Answers add theirs with
 * Object.assign, not a spread (docs/performance.md#allocation-on-the-hot-path).
 */
function payoutCore(payout: ExistingPayout) {
  return {
    payout_id: payout.payoutId,
    status: payout.status,
    status_version: payout.statusVersion,
    amount: payout.amount,
    fee: payout.fee,
    total_reserved: payout.totalReserved,
    currency: payout.currency,
    funds_released: payout.fundsReleased,
  };
}

/** Create Payout's response (`POST /api/payout/create`). */
export function createPayoutResponse(
  payout: ExistingPayout,
  url: string | null,
  accessLinkExpiresAt: string,
) {
  return Object.assign(payoutCore(payout), {
    payout_url: url,
    access_link_expires_at: accessLinkExpiresAt,
    payout_expires_at: payout.payoutExpiresAt,
  });
}

/** The merchant view (as Get Payout) straight from the aggregate, for commands that return a payout. */
export function payoutMerchantView(payout: ExistingPayout) {
  return Object.assign(payoutCore(payout), {
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
  });
}

/**
 * Handoffs last 10 minutes (docs/design.md#delivery-links-and-expiry); used to rebuild a redirect
 * payout's first deadline.
 */
const HANDOFF_MS = 10 * 60 * 1000;

/**
 * Create's response for a payout found after an attempt whose outcome was unknown: the same
 * fields, with `payout_url` null (the link was never shown; rotate it or start a session).
 */
export function createResponseFromView(view: PayoutMerchantView) {
  const handoffEnd = new Date(Date.parse(view.created_at) + HANDOFF_MS).toISOString();
  return {
    payout_id: view.payout_id,
    status: view.status,
    status_version: view.status_version,
    amount: view.amount,
    fee: view.fee,
    total_reserved: view.total_reserved,
    currency: view.currency,
    funds_released: view.funds_released,
    payout_url: null,
    access_link_expires_at:
      view.delivery === 'redirect' && handoffEnd < view.payout_expires_at
        ? handoffEnd
        : view.payout_expires_at,
    payout_expires_at: view.payout_expires_at,
  };
}
