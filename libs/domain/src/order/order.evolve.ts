import { Aggregate, currentVersionsOnly } from '../kernel/aggregate';
import { ORDER_EVENT_SCHEMA_VERSIONS, ORDER_STREAM_TYPE, OrderCreated, OrderEvent } from './order.events';
import { initialOrderState, Order, OrderIn, OrderState } from './order.state';

/** Folds one event into the order's state: a pure switch, one case per event. */
export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderCreated': {
      if (state.status !== 'none') throw corrupt(event, 'the order already exists');
      return createdOrder(event.data);
    }
    case 'OrderPaymentDeclined': {
      const order = nextAttempt(state, event);
      return { ...order, attempts: event.data.attempt, lastDecline: event.data.reason };
    }
    case 'OrderPaid': {
      const order = nextAttempt(state, event);
      const { attempt, instrument, at } = event.data;
      return { ...order, attempts: attempt, status: 'SUCCESS', paidAt: at, instrument };
    }
    case 'OrderExpired': {
      const order = pending(state, event);
      return { ...order, status: 'EXPIRED', paidAt: null, instrument: null };
    }
    default: {
      const _never: never = event;
      throw new Error(`Unknown order event ${JSON.stringify(_never)}`);
    }
  }
}

// Every field listed rather than spread: the state never carries what the event adds later.
function createdOrder(d: OrderCreated['data']): Order {
  return {
    orderId: d.orderId,
    accountId: d.accountId,
    environment: d.environment,
    method: d.method,
    amount: d.amount,
    currency: d.currency,
    customer: d.customer,
    product: d.product,
    redirectUrl: d.redirectUrl,
    hookUrl: d.hookUrl,
    credentialId: d.credentialId,
    pageTokenHash: d.pageTokenHash,
    createdAt: d.createdAt,
    expiresAt: d.expiresAt,
    attempts: 0,
    lastDecline: null,
    status: 'PENDING',
    paidAt: null,
    instrument: null,
  };
}

// An event the decider could not have produced means a corrupt stream or a bug: fail loudly.
function pending(state: OrderState, event: OrderEvent): OrderIn<'PENDING'> {
  if (state.status === 'none') throw corrupt(event, 'the order does not exist');
  if (state.status !== 'PENDING') throw corrupt(event, `the order is ${state.status}`);
  if (state.orderId !== event.data.orderId) throw corrupt(event, `it belongs to order ${event.data.orderId}`);
  return state;
}

function nextAttempt(
  state: OrderState,
  event: OrderEvent & { data: { attempt: number } },
): OrderIn<'PENDING'> {
  const order = pending(state, event);
  if (event.data.attempt !== order.attempts + 1) {
    throw corrupt(event, `attempt ${event.data.attempt} does not follow attempt ${order.attempts}`);
  }
  return order;
}

function corrupt(event: OrderEvent, why: string): Error {
  return new Error(`Cannot apply ${event.type}: ${why}`);
}

/** A checkout order, as it is loaded everywhere. */
export const ORDER_AGGREGATE: Aggregate<OrderEvent, OrderState> = {
  streamType: ORDER_STREAM_TYPE,
  initial: initialOrderState,
  evolve: evolveOrder,
  upcast: currentVersionsOnly(ORDER_STREAM_TYPE, ORDER_EVENT_SCHEMA_VERSIONS),
};
