import { BalanceTransaction, Settlement } from './generated/prisma/client';

/** The ledger's figures right after a balance transaction (two-decimal strings). */
export interface RunningBalances {
  pending: string;
  available: string;
  customer_payout_holds: string;
  merchant_settlement_holds: string;
}

/** One money movement as the merchant reads it (docs/design.md#funds-flow, docs/balance.md). */
export interface BalanceTransactionView {
  id: string;
  type: string;
  currency: string;
  amount: string;
  fee: string;
  net: string;
  status: string;
  available_on: string | null;
  order_id: number | null;
  payout_id: string | null;
  settlement_id: string | null;
  included_in_settlement: string | null;
  description: string;
  created_at: string;
  running_balances: RunningBalances;
}

export function toBalanceTransactionView(row: BalanceTransaction): BalanceTransactionView {
  return {
    id: row.id,
    type: row.type,
    currency: row.currency,
    amount: row.amount.toFixed(2),
    fee: row.fee.toFixed(2),
    net: row.net.toFixed(2),
    status: row.status,
    available_on: row.availableOn ? row.availableOn.toISOString() : null,
    // Order ids are below 2^53 (a sequence from 1,000,001), so the JSON integer is exact.
    order_id: row.orderId === null ? null : Number(row.orderId),
    payout_id: row.payoutId,
    settlement_id: row.settlementId,
    included_in_settlement: row.includedInSettlement,
    description: row.description,
    created_at: row.createdAt.toISOString(),
    running_balances: {
      pending: row.runningPending.toFixed(2),
      available: row.runningAvailable.toFixed(2),
      customer_payout_holds: row.runningCustomerPayoutHolds.toFixed(2),
      merchant_settlement_holds: row.runningMerchantSettlementHolds.toFixed(2),
    },
  };
}

/** A settlement (money to the merchant's bank) as the merchant reads it. */
export interface SettlementView {
  id: string;
  currency: string;
  amount: string;
  status: string;
  failure_reason: string | null;
  trigger: string;
  retained_target: string;
  created_at: string;
  paid_at: string | null;
  failed_at: string | null;
}

export function toSettlementView(row: Settlement): SettlementView {
  return {
    id: row.id,
    currency: row.currency,
    amount: row.amount.toFixed(2),
    status: row.status,
    failure_reason: row.failureReason,
    trigger: row.trigger,
    retained_target: row.retainedTarget.toFixed(2),
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt ? row.paidAt.toISOString() : null,
    failed_at: row.failedAt ? row.failedAt.toISOString() : null,
  };
}
