import { formatMoney, Money, parseMoney, ZERO_MONEY } from '../money/money';
import { Decider, Environment } from '../kernel/decider';
import { DomainError } from '../kernel/domain-error';
import { FloatEvent, FloatState, initialFloatState } from './float.events';
import { evolveFloat } from './float.evolve';

/** Commands to one environment's payout float. */
export type TopUpFloat = {
  type: 'TopUpFloat';
  data: { environment: Environment; amount: string; reference: string };
};

/** Set a confirmed payout's amount aside before it is sent; refused when the float cannot cover it. */
export type ReserveFloat = {
  type: 'ReserveFloat';
  data: { environment: Environment; payoutId: string; amount: string };
};

/** The payout failed after its amount was set aside: the money is back at the rail. */
export type ReleaseFloat = { type: 'ReleaseFloat'; data: { environment: Environment; payoutId: string } };

/** The rail paid the recipient. */
export type SettleFloat = { type: 'SettleFloat'; data: { environment: Environment; payoutId: string } };

export type FloatCommand = TopUpFloat | ReserveFloat | ReleaseFloat | SettleFloat;

export function decideFloat(command: FloatCommand, state: FloatState, now: Date): FloatEvent[] {
  switch (command.type) {
    case 'TopUpFloat':
      return topUp(command.data, now);
    case 'ReserveFloat':
      return reserve(command.data, state, now);
    case 'ReleaseFloat':
      return release(command.data, state, now);
    case 'SettleFloat':
      return settle(command.data, state, now);
    default: {
      const _never: never = command;
      throw new Error(`Unknown float command ${JSON.stringify(_never)}`);
    }
  }
}

function topUp(data: TopUpFloat['data'], now: Date): FloatEvent[] {
  const amount = positiveAmount(data.amount);
  requireText(data.reference, 'reference');
  const { environment, reference } = data;
  return [
    {
      type: 'FloatToppedUp',
      data: { environment, amount: formatMoney(amount), reference, at: now.toISOString() },
    },
  ];
}

function reserve(data: ReserveFloat['data'], state: FloatState, now: Date): FloatEvent[] {
  requireText(data.payoutId, 'payout_id');
  const amount = positiveAmount(data.amount);
  const open = state.openReservations.get(data.payoutId);
  // The worker may retry a reservation it cannot tell was written (a crash between the append and
  // its own bookkeeping): the same payout and amount again is the same reservation.
  if (open !== undefined) {
    if (open.eq(amount)) return [];
    throw new DomainError(
      'invalid_transition',
      `Payout ${data.payoutId} already has ${formatMoney(open)} reserved, not ${formatMoney(amount)}`,
    );
  }
  const closed = state.closedReservations.get(data.payoutId);
  if (closed !== undefined) {
    throw new DomainError(
      'invalid_transition',
      `The float reservation of payout ${data.payoutId} was already ${closed === 'settled' ? 'paid out' : 'returned'}`,
    );
  }
  if (state.available.lt(amount)) {
    throw new DomainError(
      'float_insufficient',
      `The ${data.environment} float has ${formatMoney(state.available)} available, less than ${formatMoney(amount)}`,
    );
  }
  return [
    {
      type: 'FloatReserved',
      data: {
        environment: data.environment,
        payoutId: data.payoutId,
        amount: formatMoney(amount),
        at: now.toISOString(),
      },
    },
  ];
}

/** Returning nothing (never reserved) or returning twice changes nothing; returning paid money is refused. */
function release(data: ReleaseFloat['data'], state: FloatState, now: Date): FloatEvent[] {
  const amount = state.openReservations.get(data.payoutId);
  if (amount === undefined) {
    if (state.closedReservations.get(data.payoutId) === 'settled') {
      throw new DomainError(
        'invalid_transition',
        `Payout ${data.payoutId} was already paid out of the float`,
      );
    }
    return [];
  }
  return [ended('FloatReleased', data, amount, now)];
}

/** Paying out twice changes nothing; paying out what was never reserved or was returned is refused. */
function settle(data: SettleFloat['data'], state: FloatState, now: Date): FloatEvent[] {
  const amount = state.openReservations.get(data.payoutId);
  if (amount === undefined) {
    switch (state.closedReservations.get(data.payoutId)) {
      case 'settled':
        return [];
      case 'released':
        throw new DomainError(
          'invalid_transition',
          `The float reservation of payout ${data.payoutId} was already returned`,
        );
      case undefined:
        throw new DomainError('reservation_not_found', `No float is reserved for payout ${data.payoutId}`);
    }
  }
  return [ended('FloatPaidOut', data, amount, now)];
}

function ended(
  type: 'FloatReleased' | 'FloatPaidOut',
  data: { environment: Environment; payoutId: string },
  amount: Money,
  now: Date,
): FloatEvent {
  return {
    type,
    data: {
      environment: data.environment,
      payoutId: data.payoutId,
      amount: formatMoney(amount),
      at: now.toISOString(),
    },
  };
}

function positiveAmount(input: unknown): Money {
  const amount = parseMoney(input, 'amount');
  if (!amount.gt(ZERO_MONEY))
    throw new DomainError('invalid_amount', 'amount must be greater than 0', 'amount');
  return amount;
}

function requireText(value: unknown, param: string): void {
  if (typeof value !== 'string' || value === '') {
    throw new DomainError('invalid_request', `${param} must be a non-empty string`, param);
  }
}

export const floatDecider: Decider<FloatCommand, FloatEvent, FloatState> = {
  decide: decideFloat,
  evolve: evolveFloat,
  initialState: initialFloatState,
};
