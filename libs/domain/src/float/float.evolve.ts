import { parseStoredMoney } from '../money/money';
import type { Money } from '../money/money';
import { Aggregate, currentVersionsOnly } from '../kernel/aggregate';
import {
  assertFloatInvariants,
  FLOAT_EVENT_SCHEMA_VERSIONS,
  FLOAT_STREAM_TYPE,
  FloatEvent,
  FloatPaidOut,
  FloatReleased,
  FloatState,
  initialFloatState,
} from './float.events';

/** Folds one float event into the float's state, then checks that money at the rail is conserved. */
export function evolveFloat(state: FloatState, event: FloatEvent): FloatState {
  const next = apply(state, event);
  assertFloatInvariants(next);
  return next;
}

function apply(state: FloatState, event: FloatEvent): FloatState {
  switch (event.type) {
    case 'FloatToppedUp': {
      const amount = parseStoredMoney(event.data.amount);
      return { ...state, toppedUp: state.toppedUp.plus(amount), available: state.available.plus(amount) };
    }
    case 'FloatReserved': {
      const { payoutId } = event.data;
      if (state.openReservations.has(payoutId) || state.closedReservations.get(payoutId) !== undefined) {
        throw new Error(`Cannot apply FloatReserved: ${payoutId} was already reserved`);
      }
      const amount = parseStoredMoney(event.data.amount);
      return {
        ...state,
        available: state.available.minus(amount),
        reserved: state.reserved.plus(amount),
        openReservations: state.openReservations.set(payoutId, amount),
      };
    }
    case 'FloatReleased': {
      const amount = openAmount(state, event);
      return {
        ...close(state, event.data.payoutId, 'released'),
        available: state.available.plus(amount),
        reserved: state.reserved.minus(amount),
      };
    }
    case 'FloatPaidOut': {
      const amount = openAmount(state, event);
      return {
        ...close(state, event.data.payoutId, 'settled'),
        reserved: state.reserved.minus(amount),
        paidOut: state.paidOut.plus(amount),
      };
    }
    default: {
      const _never: never = event;
      throw new Error(`Unknown float event ${JSON.stringify(_never)}`);
    }
  }
}

// An ending event the decider could not have produced means a corrupt stream or a bug.
function openAmount(state: FloatState, event: FloatReleased | FloatPaidOut): Money {
  const amount = state.openReservations.get(event.data.payoutId);
  if (amount === undefined) {
    throw new Error(`Cannot apply ${event.type}: no open reservation for ${event.data.payoutId}`);
  }
  if (!amount.eq(parseStoredMoney(event.data.amount))) {
    throw new Error(
      `Cannot apply ${event.type}: amount differs from the reservation of ${event.data.payoutId}`,
    );
  }
  return amount;
}

function close(state: FloatState, payoutId: string, outcome: 'released' | 'settled'): FloatState {
  return {
    ...state,
    openReservations: state.openReservations.delete(payoutId),
    closedReservations: state.closedReservations.with(payoutId, outcome),
  };
}

/** The payout float of one environment, as it is loaded everywhere. */
export const FLOAT_AGGREGATE: Aggregate<FloatEvent, FloatState> = {
  streamType: FLOAT_STREAM_TYPE,
  initial: initialFloatState,
  evolve: evolveFloat,
  upcast: currentVersionsOnly(FLOAT_STREAM_TYPE, FLOAT_EVENT_SCHEMA_VERSIONS),
};
