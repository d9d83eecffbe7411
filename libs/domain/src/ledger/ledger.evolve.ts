import { Map as PersistentMap } from 'immutable';
import { parseStoredMoney } from '../money/money';
import { Aggregate } from '../kernel/aggregate';
import { fundsFlowBookkeeping } from './ledger.funds-flow';
import { LEDGER_STREAM_TYPE, LedgerEvent } from './ledger.events';
import { LedgerFigures, ledgerMovement, movedFigures, NO_MOVEMENT } from './ledger.movement';
import { assertLedgerInvariants, initialLedgerState, LedgerState, OpenReservation } from './ledger.state';
import { upcastLedgerEvent } from './ledger.upcast';

/**
 * Folds one ledger event into the ledger's state: first what the event does besides money (and
 * whether it fits the state at all), then its money, by ledgerMovement (the one rule the read
 * models and the audit count with too), then the money invariants. An event that does not fit or
 * would break them is a corrupt stream or a bug, and is never applied.
 */
export function evolveLedger(state: LedgerState, event: LedgerEvent): LedgerState {
  const kept = bookkeeping(state, event);
  const movement = ledgerMovement(event);
  const next = movement === NO_MOVEMENT ? kept : withFigures(kept, movedFigures(kept, movement));
  assertLedgerInvariants(next);
  return next;
}

/**
 * The state with these figures, every field named: a second spread of the whole state after the
 * bookkeeping's made folding a ledger a third slower; a literal of one known shape costs little.
 */
const withFigures = (s: LedgerState, f: LedgerFigures): LedgerState => ({
  limits: s.limits,
  fundsIn: f.fundsIn,
  available: f.available,
  customerPayoutHolds: f.customerPayoutHolds,
  customerPayoutsSettled: f.customerPayoutsSettled,
  merchantSettlementHolds: f.merchantSettlementHolds,
  grossProceeds: f.grossProceeds,
  processingFees: f.processingFees,
  pending: f.pending,
  maturedProceeds: f.maturedProceeds,
  operatorCredits: f.operatorCredits,
  settlementsPaid: f.settlementsPaid,
  retainedTarget: f.retainedTarget,
  pendingPayments: s.pendingPayments,
  openSettlements: s.openSettlements,
  closedSettlements: s.closedSettlements,
  openReservations: s.openReservations,
  closedReservations: s.closedReservations,
  pendingByCustomer: s.pendingByCustomer,
});

/** Everything an event does to the state but its money figures, after checking it fits the state. */
function bookkeeping(state: LedgerState, event: LedgerEvent): LedgerState {
  switch (event.type) {
    case 'LedgerLimitsSet':
      return { ...state, limits: event.data.limits };
    case 'FundsCredited':
      return state;
    case 'PaymentProceedsRecorded':
    case 'PaymentProceedsMatured':
    case 'SettlementStarted':
    case 'SettlementPaid':
    case 'SettlementFailed':
    case 'RetainedTargetSet':
      return fundsFlowBookkeeping(state, event);
    case 'PayoutFundsReserved': {
      const { payoutId, customerKey } = event.data;
      if (state.openReservations.has(payoutId) || state.closedReservations.get(payoutId) !== undefined) {
        throw new Error(`Cannot apply PayoutFundsReserved: ${payoutId} was already reserved`);
      }
      const total = parseStoredMoney(event.data.total);
      return {
        ...state,
        openReservations: state.openReservations.set(payoutId, { customerKey, total }),
        pendingByCustomer: countPending(state.pendingByCustomer, customerKey, +1),
      };
    }
    case 'PayoutFundsReleased':
      return closeReservation(state, event.data.payoutId, openReservation(state, event), 'released');
    case 'PayoutFundsSettled':
      return closeReservation(state, event.data.payoutId, openReservation(state, event), 'settled');
    default: {
      const _never: never = event;
      throw new Error(`Unknown ledger event ${JSON.stringify(_never)}`);
    }
  }
}

/** The reservation an ending event refers to, which must be open and hold the event's total. */
function openReservation(
  state: LedgerState,
  event: Extract<LedgerEvent, { type: 'PayoutFundsReleased' | 'PayoutFundsSettled' }>,
): OpenReservation {
  const reservation = state.openReservations.get(event.data.payoutId);
  if (reservation === undefined) {
    throw new Error(`Cannot apply ${event.type}: no open reservation for ${event.data.payoutId}`);
  }
  if (!reservation.total.eq(parseStoredMoney(event.data.total))) {
    throw new Error(
      `Cannot apply ${event.type}: total differs from the reservation of ${event.data.payoutId}`,
    );
  }
  return reservation;
}

function closeReservation(
  state: LedgerState,
  payoutId: string,
  reservation: OpenReservation,
  outcome: 'released' | 'settled',
): LedgerState {
  return {
    ...state,
    openReservations: state.openReservations.delete(payoutId),
    closedReservations: state.closedReservations.with(payoutId, outcome),
    pendingByCustomer: countPending(state.pendingByCustomer, reservation.customerKey, -1),
  };
}

function countPending(pending: PersistentMap<string, number>, customerKey: string, delta: 1 | -1) {
  const count = (pending.get(customerKey) ?? 0) + delta;
  if (count < 0) throw new Error(`Pending count of ${customerKey} would go below 0`);
  return count === 0 ? pending.delete(customerKey) : pending.set(customerKey, count);
}

/** The ledger as the write side, the read models and the audit load it. */
export const LEDGER_AGGREGATE: Aggregate<LedgerEvent, LedgerState> = {
  streamType: LEDGER_STREAM_TYPE,
  initial: initialLedgerState,
  evolve: evolveLedger,
  upcast: upcastLedgerEvent,
};
