import { Money, parseStoredMoney, ZERO_MONEY } from '../money/money';
import type { LedgerEvent } from './ledger.events';
import type { LedgerState } from './ledger.state';

/** The ledger's running money figures: each event adds a signed amount to some of them. */
export const LEDGER_RUNNING_FIGURES = [
  'fundsIn',
  'operatorCredits',
  'available',
  'customerPayoutHolds',
  'customerPayoutsSettled',
  'merchantSettlementHolds',
  'settlementsPaid',
  'grossProceeds',
  'processingFees',
  'pending',
  'maturedProceeds',
] as const;
export type LedgerRunningFigure = (typeof LEDGER_RUNNING_FIGURES)[number];

/** Every money figure of a ledger: the running ones and the retained target. */
export type LedgerFigures = Pick<LedgerState, LedgerRunningFigure | 'retainedTarget'>;

/**
 * What one ledger event does to the ledger's money figures (docs/design.md#funds-flow), the one
 * statement of that rule: evolveLedger moves the ledger by it, the balance read model adds it
 * (summed over a batch) to its row, and the audit's statement counts with evolveLedger. The
 * retained target is set, not added: null leaves it as it is.
 */
export type LedgerMovement = Record<LedgerRunningFigure, Money> & { retainedTarget: Money | null };

export const NO_MOVEMENT: LedgerMovement = {
  fundsIn: ZERO_MONEY,
  operatorCredits: ZERO_MONEY,
  available: ZERO_MONEY,
  customerPayoutHolds: ZERO_MONEY,
  customerPayoutsSettled: ZERO_MONEY,
  merchantSettlementHolds: ZERO_MONEY,
  settlementsPaid: ZERO_MONEY,
  grossProceeds: ZERO_MONEY,
  processingFees: ZERO_MONEY,
  pending: ZERO_MONEY,
  maturedProceeds: ZERO_MONEY,
  retainedTarget: null,
};

/**
 * The movement of one event, from the event alone. evolveLedger checks first that the event fits
 * the ledger (an end of a reservation carries its total, a maturing its payment's net, a paid or
 * failed settlement its amount), so the amounts here are the ones the state holds.
 */
export function ledgerMovement(event: LedgerEvent): LedgerMovement {
  switch (event.type) {
    case 'LedgerLimitsSet':
      return NO_MOVEMENT;
    case 'RetainedTargetSet':
      return { ...NO_MOVEMENT, retainedTarget: parseStoredMoney(event.data.amount) };
    case 'FundsCredited': {
      const amount = parseStoredMoney(event.data.amount);
      return { ...NO_MOVEMENT, fundsIn: amount, operatorCredits: amount, available: amount };
    }
    case 'PayoutFundsReserved': {
      const total = parseStoredMoney(event.data.total);
      return { ...NO_MOVEMENT, available: total.neg(), customerPayoutHolds: total };
    }
    case 'PayoutFundsReleased': {
      const total = parseStoredMoney(event.data.total);
      return { ...NO_MOVEMENT, available: total, customerPayoutHolds: total.neg() };
    }
    case 'PayoutFundsSettled': {
      const total = parseStoredMoney(event.data.total);
      return { ...NO_MOVEMENT, customerPayoutHolds: total.neg(), customerPayoutsSettled: total };
    }
    case 'PaymentProceedsRecorded':
      return {
        ...NO_MOVEMENT,
        grossProceeds: parseStoredMoney(event.data.gross),
        processingFees: parseStoredMoney(event.data.fee),
        pending: parseStoredMoney(event.data.net),
      };
    case 'PaymentProceedsMatured': {
      // Cleared: out of pending, into matured proceeds, and so into funds in and available.
      const net = parseStoredMoney(event.data.net);
      return { ...NO_MOVEMENT, pending: net.neg(), maturedProceeds: net, fundsIn: net, available: net };
    }
    case 'SettlementStarted': {
      const amount = parseStoredMoney(event.data.amount);
      return { ...NO_MOVEMENT, available: amount.neg(), merchantSettlementHolds: amount };
    }
    case 'SettlementPaid': {
      const amount = parseStoredMoney(event.data.amount);
      return { ...NO_MOVEMENT, merchantSettlementHolds: amount.neg(), settlementsPaid: amount };
    }
    case 'SettlementFailed': {
      const amount = parseStoredMoney(event.data.amount);
      return { ...NO_MOVEMENT, merchantSettlementHolds: amount.neg(), available: amount };
    }
    default: {
      const _never: never = event;
      throw new Error(`Unknown ledger event ${JSON.stringify(_never)}`);
    }
  }
}

/**
 * a + b without a new Big when either is zero: most of a movement is zero (a payment moves three
 * of eleven figures), and a batch or a fold adds every figure of every movement. Big values are
 * never changed in place, so giving back an operand is safe.
 */
const plus = (a: Money, b: Money): Money => (b.c[0] === 0 ? a : a.c[0] === 0 ? b : a.plus(b));

/** `a` then `b`: the running figures add, the retained target is the later one set. */
export function addMovements(a: LedgerMovement, b: LedgerMovement): LedgerMovement {
  if (b === NO_MOVEMENT) return a;
  return {
    fundsIn: plus(a.fundsIn, b.fundsIn),
    operatorCredits: plus(a.operatorCredits, b.operatorCredits),
    available: plus(a.available, b.available),
    customerPayoutHolds: plus(a.customerPayoutHolds, b.customerPayoutHolds),
    customerPayoutsSettled: plus(a.customerPayoutsSettled, b.customerPayoutsSettled),
    merchantSettlementHolds: plus(a.merchantSettlementHolds, b.merchantSettlementHolds),
    settlementsPaid: plus(a.settlementsPaid, b.settlementsPaid),
    grossProceeds: plus(a.grossProceeds, b.grossProceeds),
    processingFees: plus(a.processingFees, b.processingFees),
    pending: plus(a.pending, b.pending),
    maturedProceeds: plus(a.maturedProceeds, b.maturedProceeds),
    retainedTarget: b.retainedTarget ?? a.retainedTarget,
  };
}

/** The figures after the movement. */
export function movedFigures(figures: LedgerFigures, m: LedgerMovement): LedgerFigures {
  return {
    fundsIn: plus(figures.fundsIn, m.fundsIn),
    operatorCredits: plus(figures.operatorCredits, m.operatorCredits),
    available: plus(figures.available, m.available),
    customerPayoutHolds: plus(figures.customerPayoutHolds, m.customerPayoutHolds),
    customerPayoutsSettled: plus(figures.customerPayoutsSettled, m.customerPayoutsSettled),
    merchantSettlementHolds: plus(figures.merchantSettlementHolds, m.merchantSettlementHolds),
    settlementsPaid: plus(figures.settlementsPaid, m.settlementsPaid),
    grossProceeds: plus(figures.grossProceeds, m.grossProceeds),
    processingFees: plus(figures.processingFees, m.processingFees),
    pending: plus(figures.pending, m.pending),
    maturedProceeds: plus(figures.maturedProceeds, m.maturedProceeds),
    retainedTarget: m.retainedTarget ?? figures.retainedTarget,
  };
}
