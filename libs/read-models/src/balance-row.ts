import Big from 'big.js';
import { LedgerEvent, upcastLedgerEvent } from '@payouts/domain';
import { BalanceFigures, toBalanceFigures } from './payout-views';
import { moneySum } from './money-figures';

/**
 * A balance row and how ledger events move it, without I/O: the one definition of each event's
 * effect, used by both paths of the balance projection (balance.projection.ts).
 */
/** One row of payout_balances (one ledger): money as decimal text, the ledger version it reflects. */
export interface BalanceRow {
  account_id: string;
  environment: string;
  ledger_version: number;
  currency: string;
  /** Matured proceeds plus operator credits: everything that became available. */
  funds_in: string;
  available: string;
  customer_payout_holds: string;
  customer_payouts_settled: string;
  merchant_settlement_holds: string;
  retained_target: string;
  pending: string;
  gross_proceeds: string;
  processing_fees: string;
  matured_proceeds: string;
  operator_credits: string;
  settlements_paid: string;
  fee_per_payout: string | null;
  min_payout: string | null;
  max_payout: string | null;
  max_open_exposure: string | null;
  max_pending_per_customer: number | null;
  updated_at: string;
}

export const EPOCH = '1970-01-01T00:00:00.000Z';

export function emptyBalance(accountId: string, environment: string, currency: string): BalanceRow {
  return {
    account_id: accountId,
    environment,
    ledger_version: 0,
    currency,
    funds_in: '0.00',
    available: '0.00',
    customer_payout_holds: '0.00',
    customer_payouts_settled: '0.00',
    merchant_settlement_holds: '0.00',
    retained_target: '0.00',
    pending: '0.00',
    gross_proceeds: '0.00',
    processing_fees: '0.00',
    matured_proceeds: '0.00',
    operator_credits: '0.00',
    settlements_paid: '0.00',
    fee_per_payout: null,
    min_payout: null,
    max_payout: null,
    max_open_exposure: null,
    max_pending_per_customer: null,
    updated_at: EPOCH,
  };
}

export function toLedgerEvent(event: { type: string; schemaVersion: number; data: unknown }): LedgerEvent {
  return upcastLedgerEvent(event);
}

/**
 * Events that only add to the figures and only add balance transactions (no earlier row changes):
 * a batch of these alone can be applied in one statement without reading the row first.
 */
export type AppendOnlyMovement = Extract<
  LedgerEvent,
  {
    type:
      | 'FundsCredited'
      | 'PayoutFundsReserved'
      | 'PayoutFundsReleased'
      | 'PayoutFundsSettled'
      | 'PaymentProceedsRecorded';
  }
>;

const APPEND_ONLY = new Set<string>([
  'FundsCredited',
  'PayoutFundsReserved',
  'PayoutFundsReleased',
  'PayoutFundsSettled',
  'PaymentProceedsRecorded',
]);
export const isAppendOnlyMovement = (event: LedgerEvent): event is AppendOnlyMovement =>
  APPEND_ONLY.has(event.type);

/** How one ledger event moves the balance's running totals: the one definition both paths use. */
export interface BalanceDeltas {
  fundsIn: Big;
  available: Big;
  holds: Big;
  settled: Big;
  settlementHolds: Big;
  pending: Big;
  gross: Big;
  fees: Big;
  matured: Big;
  credits: Big;
  settlementsPaid: Big;
}

const ZERO = new Big(0);
export const NO_DELTAS: BalanceDeltas = {
  fundsIn: ZERO,
  available: ZERO,
  holds: ZERO,
  settled: ZERO,
  settlementHolds: ZERO,
  pending: ZERO,
  gross: ZERO,
  fees: ZERO,
  matured: ZERO,
  credits: ZERO,
  settlementsPaid: ZERO,
};

export function ledgerDeltas(event: LedgerEvent): BalanceDeltas {
  switch (event.type) {
    case 'LedgerLimitsSet':
    case 'RetainedTargetSet':
      return NO_DELTAS;
    case 'FundsCredited': {
      const amount = new Big(event.data.amount);
      return { ...NO_DELTAS, fundsIn: amount, credits: amount, available: amount };
    }
    case 'PayoutFundsReserved': {
      const total = new Big(event.data.total);
      return { ...NO_DELTAS, available: total.neg(), holds: total };
    }
    case 'PayoutFundsReleased': {
      const total = new Big(event.data.total);
      return { ...NO_DELTAS, available: total, holds: total.neg() };
    }
    case 'PayoutFundsSettled': {
      const total = new Big(event.data.total);
      return { ...NO_DELTAS, holds: total.neg(), settled: total };
    }
    case 'PaymentProceedsRecorded': {
      const { gross, fee, net } = event.data;
      return { ...NO_DELTAS, gross: new Big(gross), fees: new Big(fee), pending: new Big(net) };
    }
    case 'PaymentProceedsMatured': {
      const net = new Big(event.data.net);
      return { ...NO_DELTAS, pending: net.neg(), matured: net, fundsIn: net, available: net };
    }
    case 'SettlementStarted': {
      const amount = new Big(event.data.amount);
      return { ...NO_DELTAS, available: amount.neg(), settlementHolds: amount };
    }
    case 'SettlementPaid': {
      const amount = new Big(event.data.amount);
      return { ...NO_DELTAS, settlementHolds: amount.neg(), settlementsPaid: amount };
    }
    case 'SettlementFailed': {
      const amount = new Big(event.data.amount);
      return { ...NO_DELTAS, settlementHolds: amount.neg(), available: amount };
    }
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

export const addDeltas = (a: BalanceDeltas, b: BalanceDeltas): BalanceDeltas => ({
  fundsIn: moneySum(a.fundsIn, b.fundsIn),
  available: moneySum(a.available, b.available),
  holds: moneySum(a.holds, b.holds),
  settled: moneySum(a.settled, b.settled),
  settlementHolds: moneySum(a.settlementHolds, b.settlementHolds),
  pending: moneySum(a.pending, b.pending),
  gross: moneySum(a.gross, b.gross),
  fees: moneySum(a.fees, b.fees),
  matured: moneySum(a.matured, b.matured),
  credits: moneySum(a.credits, b.credits),
  settlementsPaid: moneySum(a.settlementsPaid, b.settlementsPaid),
});

const plus = (figure: string, delta: Big): string => new Big(figure).plus(delta).toFixed(2);

/** Pure: the balance after one more ledger event. */
export function applyLedgerEvent(row: BalanceRow, event: LedgerEvent, version: number): BalanceRow {
  const next: BalanceRow = { ...row, ledger_version: version, updated_at: event.data.at };
  if (event.type === 'LedgerLimitsSet') {
    const limits = event.data.limits;
    return {
      ...next,
      fee_per_payout: limits.feePerPayout,
      min_payout: limits.minPayout,
      max_payout: limits.maxPayout,
      max_open_exposure: limits.maxOpenExposure,
      max_pending_per_customer: limits.maxPendingPerCustomer,
    };
  }
  if (event.type === 'RetainedTargetSet') {
    return { ...next, retained_target: new Big(event.data.amount).toFixed(2) };
  }
  const d = ledgerDeltas(event);
  return {
    ...next,
    funds_in: plus(row.funds_in, d.fundsIn),
    available: plus(row.available, d.available),
    customer_payout_holds: plus(row.customer_payout_holds, d.holds),
    customer_payouts_settled: plus(row.customer_payouts_settled, d.settled),
    merchant_settlement_holds: plus(row.merchant_settlement_holds, d.settlementHolds),
    pending: plus(row.pending, d.pending),
    gross_proceeds: plus(row.gross_proceeds, d.gross),
    processing_fees: plus(row.processing_fees, d.fees),
    matured_proceeds: plus(row.matured_proceeds, d.matured),
    operator_credits: plus(row.operator_credits, d.credits),
    settlements_paid: plus(row.settlements_paid, d.settlementsPaid),
  };
}

/** The balance's figures (Get Payout Balance's) from a balance row: one definition, toBalanceFigures. */
export function balanceRowFigures(row: BalanceRow): BalanceFigures {
  return toBalanceFigures({
    currency: row.currency,
    fundsIn: new Big(row.funds_in),
    pending: new Big(row.pending),
    available: new Big(row.available),
    customerPayoutHolds: new Big(row.customer_payout_holds),
    merchantSettlementHolds: new Big(row.merchant_settlement_holds),
    customerPayoutsSettled: new Big(row.customer_payouts_settled),
    retainedTarget: new Big(row.retained_target),
  });
}
