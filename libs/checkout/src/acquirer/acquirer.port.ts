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

/** The card and wallet acquirer: a port, like the payout rail; its only adapter is the simulator. */
export interface Acquirer {
  authorize(request: AuthorizationRequest): Promise<AuthorizationOutcome>;
}

export const ACQUIRER = Symbol('ACQUIRER');
