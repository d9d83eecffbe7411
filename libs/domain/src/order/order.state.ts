import { OrderCreated, OrderDeclineReason, OrderInstrument, OrderStatus } from './order.events';

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
