import type { Environment, OrderDeclineReason, OrderInstrument, OrderMethod } from '@payouts/domain';

/** What the payer typed on the hosted page. The card number lives only as long as this request. */
export type PaymentInstrumentInput =
  | {
      kind: 'card';
      number: string;
      expiryMonth: number;
      expiryYear: number;
      securityCode: string;
      name: string;
    }
  | { kind: 'wallet'; account: string };

export interface AuthorizationRequest {
  /**
   * The order and the attempt (`order_<id>_attempt_<n>`, n counting every attempt on the order):
   * an acquirer asked twice with one key authorizes once and gives the same answer, so an attempt
   * retried after a crash or a lost answer never charges the payer twice.
   */
  readonly idempotencyKey: string;
  readonly orderId: number;
  readonly environment: Environment;
  readonly method: OrderMethod;
  readonly amount: string;
  readonly currency: string;
  readonly instrument: PaymentInstrumentInput;
}

/**
 * The acquirer's answer, already reduced to what the service may keep: the instrument as brand and
 * last four digits (or a masked wallet account), never the number.
 */
export type AuthorizationOutcome =
  | { approved: true; instrument: OrderInstrument }
  | { approved: false; reason: OrderDeclineReason; instrument: OrderInstrument };

/** The idempotency key of an order's `attempt`-th attempt to pay (counting from 1). */
export function authorizationKey(orderId: number, attempt: number): string {
  return `order_${orderId}_attempt_${attempt}`;
}

/** The card and wallet acquirer: a port, like the payout rail; its only adapter is the simulator. */
export interface Acquirer {
  authorize(request: AuthorizationRequest): Promise<AuthorizationOutcome>;
}

export const ACQUIRER = Symbol('ACQUIRER');
