import Big from 'big.js';
import type { Payout } from '@payouts/domain';
import { PayoutListEntry } from './generated/prisma/client';

/** The merchant view of a payout (Get Payout), without `payout_url` and `access_link_expires_at`. */
export interface PayoutMerchantView {
  payout_id: string;
  status: string;
  status_version: number;
  amount: string;
  fee: string;
  total_reserved: string;
  currency: string;
  funds_released: boolean;
  merchant_reference: string;
  customer_id: string | null;
  delivery: string;
  source: string;
  case_reference: string | null;
  selected_method: string | null;
  safe_reason: string | null;
  receipt_reference: string | null;
  created_at: string;
  accepted_at: string | null;
  payout_expires_at: string;
  updated_at: string;
}

/** A number the view prints with two decimals: Prisma's Decimal (a row) or big.js (a folded payout). */
interface FixedDecimal {
  toFixed(decimals: number): string;
}

/** What the merchant view is made of: a payout_list row, or a payout folded from its stream. */
export type PayoutViewSource = Omit<
  PayoutListEntry,
  'accountId' | 'environment' | 'streamVersion' | 'amount' | 'fee' | 'totalReserved'
> & { amount: FixedDecimal; fee: FixedDecimal; totalReserved: FixedDecimal };

export function toPayoutMerchantView(row: PayoutViewSource): PayoutMerchantView {
  return {
    payout_id: row.payoutId,
    status: row.status,
    status_version: row.statusVersion,
    amount: row.amount.toFixed(2),
    fee: row.fee.toFixed(2),
    total_reserved: row.totalReserved.toFixed(2),
    currency: row.currency,
    funds_released: row.fundsReleased,
    merchant_reference: row.merchantReference,
    customer_id: row.customerId,
    delivery: row.delivery,
    source: row.source,
    case_reference: row.caseReference,
    selected_method: row.selectedMethod,
    safe_reason: row.safeReason,
    receipt_reference: row.receiptReference,
    created_at: row.createdAt.toISOString(),
    accepted_at: row.acceptedAt ? row.acceptedAt.toISOString() : null,
    payout_expires_at: row.payoutExpiresAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The merchant view of a payout as its stream folds it at some version (the events feed's `data`
 * at that moment), through the same mapping as a payout_list row: the row is this fold, stored.
 */
export function payoutMerchantViewOf(payout: Payout): PayoutMerchantView {
  const time = (iso: string) => new Date(iso);
  return toPayoutMerchantView({
    payoutId: payout.payoutId,
    status: payout.status,
    statusVersion: payout.statusVersion,
    amount: new Big(payout.amount),
    fee: new Big(payout.fee),
    totalReserved: new Big(payout.totalReserved),
    currency: payout.currency,
    fundsReleased: payout.fundsReleased,
    merchantReference: payout.merchantReference,
    customerId: payout.customerId,
    delivery: payout.delivery,
    source: payout.source,
    caseReference: payout.caseReference,
    selectedMethod: payout.selectedMethod,
    safeReason: payout.safeReason,
    receiptReference: payout.receiptReference,
    createdAt: time(payout.createdAt),
    acceptedAt: payout.acceptedAt === null ? null : time(payout.acceptedAt),
    payoutExpiresAt: time(payout.payoutExpiresAt),
    updatedAt: time(payout.updatedAt),
  });
}

/** The balance's money figures (`GET /api/payout/balance`) as exact decimal strings. */
export interface BalanceFigures {
  currency: string;
  funds_in: string;
  pending: string;
  matured: string;
  available_for_new_commitments: string;
  merchant_settlement_holds: string;
  customer_payout_holds: string;
  customer_payouts_settled: string;
  retained_target: string;
  estimated_next_settlement: string;
}

/** A decimal the figures can be worked in: Prisma's Decimal (a payout_balances row) or big.js. */
interface Decimal<D> {
  plus(other: D): D;
  minus(other: D): D;
  gt(other: number): boolean;
  toFixed(decimals: number): string;
}

/** The amounts of a balance the figures are made of, in any one decimal type. */
export type BalanceAmounts<D extends Decimal<D>> = { currency: string } & Record<
  | 'fundsIn'
  | 'pending'
  | 'available'
  | 'customerPayoutHolds'
  | 'merchantSettlementHolds'
  | 'customerPayoutsSettled'
  | 'retainedTarget',
  D
>;

/**
 * The one definition of the figures from a balance's amounts: Get Payout Balance answers them from
 * the payout_balances row, the audit's statement from its own fold of the ledger's events.
 */
export function toBalanceFigures<D extends Decimal<D>>(row: BalanceAmounts<D>): BalanceFigures {
  const surplus = row.available.minus(row.retainedTarget);
  return {
    currency: row.currency,
    funds_in: row.fundsIn.toFixed(2),
    pending: row.pending.toFixed(2),
    // Cleared funds still owed to the merchant, before holds: what is available, committed to
    // payouts not yet paid, and held for a settlement under way (= funds in − paid out − settled).
    matured: row.available.plus(row.customerPayoutHolds).plus(row.merchantSettlementHolds).toFixed(2),
    available_for_new_commitments: row.available.toFixed(2),
    merchant_settlement_holds: row.merchantSettlementHolds.toFixed(2),
    customer_payout_holds: row.customerPayoutHolds.toFixed(2),
    customer_payouts_settled: row.customerPayoutsSettled.toFixed(2),
    retained_target: row.retainedTarget.toFixed(2),
    // What the next settlement run would take now: available above the retained target, never below 0.
    estimated_next_settlement: surplus.gt(0) ? surplus.toFixed(2) : '0.00',
  };
}
