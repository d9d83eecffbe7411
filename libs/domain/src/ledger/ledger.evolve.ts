import { Map as PersistentMap } from 'immutable';
import { parseStoredMoney } from '../money/money';
import { Aggregate } from '../shared/aggregate';
import { applyFundsFlow } from './ledger.funds-flow';
import { LEDGER_STREAM_TYPE, LedgerEvent } from './ledger.events';
import { assertLedgerInvariants, initialLedgerState, LedgerState, OpenReservation } from './ledger.state';
import { upcastLedgerEvent } from './ledger.upcast';

/**
 * Folds one ledger event into the ledger's state, then checks the money invariants: an event that
 * would break them is a corrupt stream or a bug, and is never applied.
 */
export function evolveLedger(state: LedgerState, event: LedgerEvent): LedgerState {
  const next = apply(state, event);
  assertLedgerInvariants(next);
  return next;
}

function apply(state: LedgerState, event: LedgerEvent): LedgerState {
  switch (event.type) {
    case 'LedgerLimitsSet':
      return { ...state, limits: event.data.limits };
    case 'FundsCredited': {
      const amount = parseStoredMoney(event.data.amount);
      return {
        ...state,
        fundsIn: state.fundsIn.plus(amount),
        operatorCredits: state.operatorCredits.plus(amount),
        available: state.available.plus(amount),
      };
    }
    case 'PaymentProceedsRecorded':
    case 'PaymentProceedsMatured':
    case 'SettlementStarted':
    case 'SettlementPaid':
    case 'SettlementFailed':
    case 'RetainedTargetSet':
      return applyFundsFlow(state, event);
    case 'PayoutFundsReserved': {
      const { payoutId, customerKey } = event.data;
      if (state.openReservations.has(payoutId) || state.closedReservations.get(payoutId) !== undefined) {
        throw new Error(`Cannot apply PayoutFundsReserved: ${payoutId} was already reserved`);
      }
      const total = parseStoredMoney(event.data.total);
      return {
        ...state,
        available: state.available.minus(total),
        customerPayoutHolds: state.customerPayoutHolds.plus(total),
        openReservations: state.openReservations.set(payoutId, { customerKey, total }),
        pendingByCustomer: countPending(state.pendingByCustomer, customerKey, +1),
      };
    }
    case 'PayoutFundsReleased': {
      const reservation = openReservation(state, event);
      return {
        ...closeReservation(state, event.data.payoutId, reservation, 'released'),
        available: state.available.plus(reservation.total),
        customerPayoutHolds: state.customerPayoutHolds.minus(reservation.total),
      };
    }
    case 'PayoutFundsSettled': {
      const reservation = openReservation(state, event);
      return {
        ...closeReservation(state, event.data.payoutId, reservation, 'settled'),
        customerPayoutHolds: state.customerPayoutHolds.minus(reservation.total),
        customerPayoutsSettled: state.customerPayoutsSettled.plus(reservation.total),
      };
    }
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
