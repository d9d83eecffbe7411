import { characterCount, hasUnstorableCharacter } from '../kernel/characters';
import { Decider } from '../kernel/decider';
import { DomainError } from '../kernel/domain-error';
import { reached } from '../kernel/time';
import { decideCreateOrder } from './order.create';
import { MarkOrderPaid, OrderCommand, RecordDeclinedAttempt } from './order.commands';
import { ORDER_DECLINE_REASONS, OrderEvent, OrderInstrument, OrderMethod } from './order.events';
import { initialOrderState, Order, OrderIn, OrderState } from './order.state';
import { evolveOrder } from './order.evolve';

/** Longest card brand and wallet account kept; both are shown, never parsed. */
const MAX_BRAND_LENGTH = 32;
const MAX_WALLET_ACCOUNT_LENGTH = 255;

/** Turns a command to one checkout order into events, or refuses it with a DomainError. */
export function decideOrder(command: OrderCommand, state: OrderState, now: Date): OrderEvent[] {
  switch (command.type) {
    case 'CreateOrder':
      return decideCreateOrder(command.data, state, now);
    case 'RecordDeclinedAttempt':
      return decideDeclined(command.data, existing(state, command.data.orderId), now);
    case 'MarkOrderPaid':
      return decidePaid(command.data, existing(state, command.data.orderId), now);
    case 'ExpireOrder':
      return decideExpire(existing(state, command.data.orderId), now);
    default: {
      const _never: never = command;
      throw new Error(`Unknown order command ${JSON.stringify(_never)}`);
    }
  }
}

function decideDeclined(data: RecordDeclinedAttempt['data'], order: Order, now: Date): OrderEvent[] {
  const pending = payable(order, now);
  if (!(ORDER_DECLINE_REASONS as readonly unknown[]).includes(data.reason)) {
    throw new DomainError(
      'invalid_request',
      `reason must be one of ${ORDER_DECLINE_REASONS.join(', ')}`,
      'reason',
    );
  }
  return [
    {
      type: 'OrderPaymentDeclined',
      data: {
        orderId: pending.orderId,
        attempt: pending.attempts + 1,
        reason: data.reason,
        instrument: instrumentFor(pending.method, data.instrument),
        at: now.toISOString(),
      },
    },
  ];
}

function decidePaid(data: MarkOrderPaid['data'], order: Order, now: Date): OrderEvent[] {
  const pending = payable(order, now);
  return [
    {
      type: 'OrderPaid',
      data: {
        orderId: pending.orderId,
        attempt: pending.attempts + 1,
        instrument: instrumentFor(pending.method, data.instrument),
        at: now.toISOString(),
      },
    },
  ];
}

function decideExpire(order: Order, now: Date): OrderEvent[] {
  if (order.status === 'EXPIRED') return [];
  if (order.status === 'SUCCESS') {
    throw new DomainError('invalid_transition', `Order ${order.orderId} is paid; it never expires`);
  }
  if (!reached(now, order.expiresAt)) {
    throw new DomainError('invalid_transition', `Order ${order.orderId} expires at ${order.expiresAt}`);
  }
  return [{ type: 'OrderExpired', data: { orderId: order.orderId, at: now.toISOString() } }];
}

/**
 * Nothing changes a paid or expired order. An order past expires_at that the worker has not yet
 * expired is already over for the payer: the page says so, and a late attempt must not pay it.
 */
function payable(order: Order, now: Date): OrderIn<'PENDING'> {
  if (order.status !== 'PENDING') {
    throw new DomainError('order_not_payable', `Order ${order.orderId} is ${order.status}`);
  }
  if (reached(now, order.expiresAt)) {
    throw new DomainError('order_not_payable', `Order ${order.orderId} expired at ${order.expiresAt}`);
  }
  return order;
}

/**
 * A fresh instrument holding only the fields an event may keep: whatever else the caller's object
 * carries (a card number above all) can never reach the stream.
 */
function instrumentFor(method: OrderMethod, instrument: OrderInstrument): OrderInstrument {
  const given = instrument as Partial<Record<string, unknown>> | null | undefined;
  if (method === 'card') {
    const { kind, brand, last4 } = given ?? {};
    if (kind !== 'card') throw badInstrument('a card order is paid with a card');
    if (typeof brand !== 'string' || !isShownText(brand, MAX_BRAND_LENGTH) || /[0-9]/.test(brand)) {
      throw badInstrument('a card brand is a short name without digits');
    }
    if (typeof last4 !== 'string' || !/^[0-9]{4}$/.test(last4)) {
      throw badInstrument('last4 is the last four digits of the card');
    }
    return { kind: 'card', brand, last4 };
  }
  const { kind, account } = given ?? {};
  if (kind !== 'wallet') throw badInstrument(`a ${method} order is paid with a wallet`);
  if (typeof account !== 'string' || !isShownText(account, MAX_WALLET_ACCOUNT_LENGTH)) {
    throw badInstrument('a wallet account is a non-empty masked account');
  }
  return { kind: 'wallet', account };
}

function isShownText(value: string, maxLength: number): boolean {
  return value !== '' && characterCount(value) <= maxLength && !hasUnstorableCharacter(value);
}

function badInstrument(why: string): DomainError {
  return new DomainError('invalid_request', `instrument is not valid: ${why}`, 'instrument');
}

function existing(state: OrderState, orderId: number): Order {
  if (state.status === 'none') throw new DomainError('not_found', `Order ${orderId} does not exist`);
  // The caller folded another order's stream: a bug, not a refusal.
  if (state.orderId !== orderId)
    throw new Error(`Command for order ${orderId} sent to order ${state.orderId}`);
  return state;
}

export const orderDecider: Decider<OrderCommand, OrderEvent, OrderState> = {
  decide: decideOrder,
  evolve: evolveOrder,
  initialState: initialOrderState,
};
