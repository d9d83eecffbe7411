import { Command } from '@nestjs/cqrs';
import type { Environment, OrderMethod } from '@payouts/domain';
import type { IdempotencyHold } from '@payouts/idempotency';

export interface CreateOrderInput {
  orderId: number;
  accountId: string;
  environment: Environment;
  /** The account's region: its currencies and whether the card method is offered. */
  region: string;
  method: OrderMethod;
  /** The JSON number's shortest decimal form ("10.5"); the decider refuses more than 2 places. */
  amount: string;
  currency: string;
  customer: string;
  product?: string | null;
  redirectUrl?: string | null;
  /** The account's checkout webhook URL for the environment, captured by the order. */
  hookUrl?: string | null;
  credentialId: string;
  /** The request's Idempotency-Key, when it sent one: its answer commits with the order. */
  hold?: IdempotencyHold;
}

export interface CreateOrderResult {
  orderId: number;
  /** Two decimals: `"10.50"`. */
  amount: string;
  /** The hosted page's token, for `order_url`; derived, never stored. */
  pageToken: string;
}

export class CreateOrderCommand extends Command<CreateOrderResult> {
  constructor(readonly input: CreateOrderInput) {
    super();
  }
}

/** Create's answer as stored for a replay: the url is derived again from the order id. */
export function storedCreateAnswer(result: Pick<CreateOrderResult, 'orderId' | 'amount'>) {
  return { order_id: result.orderId, amount: result.amount };
}
