import { Map as PersistentMap } from 'immutable';
import { ClosedReservations } from '../ledger/closed-reservations';
import { Money, sumMoney, ZERO_MONEY } from '../money/money';
import { Environment } from '../kernel/decider';

/**
 * The payout float of one environment (`float-<environment>`): the service's own money at the
 * payout rail, out of which confirmed payouts are sent. It is separate from every merchant's
 * ledger: a merchant's balance says what the merchant may pay out, the float says what the
 * service can send right now. Money is a decimal string with exactly two decimals.
 */
export type FloatToppedUp = {
  type: 'FloatToppedUp';
  data: { environment: Environment; amount: string; reference: string; at: string };
};

/** A confirmed payout's amount is set aside before it is sent, so the rail is never overdrawn. */
export type FloatReserved = {
  type: 'FloatReserved';
  data: { environment: Environment; payoutId: string; amount: string; at: string };
};

/** The rail returned the money (the payout failed or a review rejected it). */
export type FloatReleased = {
  type: 'FloatReleased';
  data: { environment: Environment; payoutId: string; amount: string; at: string };
};

/** The rail paid the recipient: the reserved amount has left the float for good. */
export type FloatPaidOut = {
  type: 'FloatPaidOut';
  data: { environment: Environment; payoutId: string; amount: string; at: string };
};

export type FloatEvent = FloatToppedUp | FloatReserved | FloatReleased | FloatPaidOut;

export const FLOAT_EVENT_SCHEMA_VERSIONS: Record<FloatEvent['type'], number> = {
  FloatToppedUp: 1,
  FloatReserved: 1,
  FloatReleased: 1,
  FloatPaidOut: 1,
};

export const FLOAT_STREAM_TYPE = 'float';
export const floatStreamId = (environment: Environment): string => `float-${environment}`;

/** One environment's float. Every amount is a big.js decimal. */
export type FloatState = {
  toppedUp: Money;
  available: Money;
  reserved: Money;
  paidOut: Money;
  /** Payouts whose amount is set aside and not yet paid out or returned (persistent, as the ledger's). */
  openReservations: PersistentMap<string, Money>;
  /** Payouts whose reservation ended; a payout is never reserved twice. */
  closedReservations: ClosedReservations;
};

export function initialFloatState(): FloatState {
  return {
    toppedUp: ZERO_MONEY,
    available: ZERO_MONEY,
    reserved: ZERO_MONEY,
    paidOut: ZERO_MONEY,
    openReservations: PersistentMap<string, Money>(),
    closedReservations: ClosedReservations.empty(),
  };
}

/** Money at the rail is conserved and never overdrawn; a violation is a bug, so a plain Error. */
export function assertFloatInvariants(state: FloatState): void {
  const accounted = sumMoney([state.available, state.reserved, state.paidOut]);
  if (!state.toppedUp.eq(accounted)) {
    throw new Error(
      `Float invariant broken: topped up ${state.toppedUp.toFixed(2)} != accounted ${accounted.toFixed(2)}`,
    );
  }
  for (const name of FLOAT_NEVER_NEGATIVE) {
    const value = state[name];
    if (value.lt(ZERO_MONEY)) throw new Error(`Float invariant broken: ${name} is ${value.toFixed(2)}`);
  }
}

/** The amounts a float never has below zero, in the order they are checked. */
const FLOAT_NEVER_NEGATIVE = ['available', 'reserved', 'paidOut'] as const;

/** The operator's view of a float, every amount as a two-decimal string. */
export type FloatView = { toppedUp: string; available: string; reserved: string; paidOut: string };

export function floatView(state: FloatState): FloatView {
  return {
    toppedUp: state.toppedUp.toFixed(2),
    available: state.available.toFixed(2),
    reserved: state.reserved.toFixed(2),
    paidOut: state.paidOut.toFixed(2),
  };
}
