import { OrderCreated, OrderDeclineReason, OrderEvent, OrderInstrument, OrderStatus } from './order.events';

/** Fields fixed at creation (OrderCreated's, one definition), plus what every attempt moves. */
export type OrderFacts = OrderCreated['data'] & {
  /** Attempts to pay, declined ones and the paying one alike. */
  attempts: number;
  lastDecline: OrderDeclineReason | null;
};

// One shape per status, so that e.g. a paid order without its instrument cannot be written.
export type PendingOrder = { status: 'PENDING'; paidAt: null; instrument: null };
export type PaidOrder = { status: 'SUCCESS'; paidAt: string; instrument: OrderInstrument };
export type ExpiredOrder = { status: 'EXPIRED'; paidAt: null; instrument: null };

export type Order = OrderFacts & (PendingOrder | PaidOrder | ExpiredOrder);
export type NoOrder = { status: 'none' };
export type OrderState = NoOrder | Order;
export type OrderIn<S extends OrderStatus> = Order & { status: S };

export function initialOrderState(): OrderState {
  return { status: 'none' };
}

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
