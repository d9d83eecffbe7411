import { Environment } from '../kernel/decider';
import { OrderDeclineReason, OrderInstrument, OrderMethod } from './order.events';

/**
 * Commands to one checkout order. The order id and the page token's hash are made outside the
 * domain (it has no randomness) and come in as data, as do the deployment's settings.
 */
export type CreateOrder = {
  type: 'CreateOrder';
  data: {
    orderId: number;
    accountId: string;
    environment: Environment;
    method: OrderMethod;
    /** The amount as received, already written as a decimal string ("10.5"). */
    amount: string;
    currency: string;
    customer: string;
    product?: string | null;
    redirectUrl?: string | null;
    /** The account's checkout webhook URL at creation, if it has one. */
    hookUrl?: string | null;
    credentialId: string;
    pageTokenHash: string;
    /** The account's region: it decides the currencies and whether cards are offered. */
    region: string;
    /** Deployment settings: the order's lifetime, its amount bounds and the card method's regions. */
    ttlMs: number;
    minAmount: string;
    maxAmount: string;
    cardRegions: readonly string[];
  };
};

export type RecordDeclinedAttempt = {
  type: 'RecordDeclinedAttempt';
  data: { orderId: number; reason: OrderDeclineReason; instrument: OrderInstrument };
};

export type MarkOrderPaid = {
  type: 'MarkOrderPaid';
  data: { orderId: number; instrument: OrderInstrument };
};

/** Fired by the expiry worker, which may fire late or twice. */
export type ExpireOrder = { type: 'ExpireOrder'; data: { orderId: number } };

export type OrderCommand = CreateOrder | RecordDeclinedAttempt | MarkOrderPaid | ExpireOrder;
