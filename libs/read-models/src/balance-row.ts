import Big from 'big.js';
import { LedgerEvent, upcastLedgerEvent } from '@payouts/domain';

/**
 * A balance row and how ledger events move it, without I/O: the one definition of each event's
 * effect, used by both paths of the balance projection (balance.projection.ts).
 */
/** One row of payout_balances: money as decimal text, the ledger version it reflects. */
export interface BalanceRow {
  account_id: string;
  environment: string;
  ledger_version: number;
  currency: string;
  funds_in: string;
  available: string;
  customer_payout_holds: string;
  customer_payouts_settled: string;
  merchant_settlement_holds: string;
  retained_target: string;
  fee_per_payout: string | null;
  min_payout: string | null;
  max_payout: string | null;
  max_open_exposure: string | null;
  max_pending_per_customer: number | null;
  updated_at: string;
}

export const EPOCH = '1970-01-01T00:00:00.000Z';

export function emptyBalance(accountId: string, environment: string): BalanceRow {
  return {
    account_id: accountId,
    environment,
    ledger_version: 0,
    currency: 'USD',
    funds_in: '0.00',
    available: '0.00',
    customer_payout_holds: '0.00',
    customer_payouts_settled: '0.00',
    merchant_settlement_holds: '0.00',
    retained_target: '0.00',
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

export type MoneyMovement = Extract<
  LedgerEvent,
  { type: 'FundsCredited' | 'PayoutFundsReserved' | 'PayoutFundsReleased' | 'PayoutFundsSettled' }
>;

const MONEY_MOVEMENTS = new Set([
  'FundsCredited',
  'PayoutFundsReserved',
  'PayoutFundsReleased',
  'PayoutFundsSettled',
]);
export const isMoneyMovement = (event: LedgerEvent): event is MoneyMovement =>
  MONEY_MOVEMENTS.has(event.type);

// replaced by the funds-read branch
const FUNDS_FLOW_EVENTS = new Set<string>([
  'PaymentProceedsRecorded',
  'PaymentProceedsMatured',
  'SettlementStarted',
  'SettlementPaid',
  'SettlementFailed',
  'RetainedTargetSet',
]);

/** How one ledger event moves the balance's running totals: the one definition both paths use. */
export interface BalanceDeltas {
  fundsIn: Big;
  available: Big;
  holds: Big;
  settled: Big;
}

const ZERO = new Big(0);
export const NO_DELTAS: BalanceDeltas = { fundsIn: ZERO, available: ZERO, holds: ZERO, settled: ZERO };

export function moneyDeltas(event: MoneyMovement): BalanceDeltas {
  switch (event.type) {
    case 'FundsCredited': {
      const amount = new Big(event.data.amount);
      return { ...NO_DELTAS, fundsIn: amount, available: amount };
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
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

export const addDeltas = (a: BalanceDeltas, b: BalanceDeltas): BalanceDeltas => ({
  fundsIn: a.fundsIn.plus(b.fundsIn),
  available: a.available.plus(b.available),
  holds: a.holds.plus(b.holds),
  settled: a.settled.plus(b.settled),
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
  // replaced by the funds-read branch: the funds-flow events (proceeds, maturing, settlements,
  // retained target) only move the row's version here until the read side projects them.
  if (FUNDS_FLOW_EVENTS.has(event.type)) return next;
  if (!isMoneyMovement(event)) throw new Error(`${event.type} is not projected yet`);
  const deltas = moneyDeltas(event);
  return {
    ...next,
    funds_in: plus(row.funds_in, deltas.fundsIn),
    available: plus(row.available, deltas.available),
    customer_payout_holds: plus(row.customer_payout_holds, deltas.holds),
    customer_payouts_settled: plus(row.customer_payouts_settled, deltas.settled),
  };
}
