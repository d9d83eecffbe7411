import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@payouts/config';
import type { Clock } from '@payouts/clock';
import {
  decideOrder,
  evolveOrder,
  initialOrderState,
  ORDER_EVENT_SCHEMA_VERSIONS,
  ORDER_STREAM_TYPE,
  orderStreamId,
} from '@payouts/domain';
import { answerRow } from '@payouts/idempotency';
import { APP_CONFIG, CLOCK } from '@payouts/platform';
import { appendTo, Decides, Decision, WritePath } from '@payouts/write-side';
import { CheckoutPageTokens } from '../shared/checkout-page-tokens';
import { CreateOrderCommand, CreateOrderResult, storedCreateAnswer } from './create-order.command';

/**
 * Creates a checkout order: one new stream, its id taken before (OrderIds), its page token derived
 * from the id. With an Idempotency-Key, the stored answer commits with the order.
 */
@CommandHandler(CreateOrderCommand)
export class CreateOrderHandler
  implements
    ICommandHandler<CreateOrderCommand, CreateOrderResult>,
    Decides<CreateOrderCommand, CreateOrderResult>
{
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pages: CheckoutPageTokens,
    private readonly writes: WritePath,
  ) {}

  execute(command: CreateOrderCommand): Promise<CreateOrderResult> {
    return this.writes.execute(command, this);
  }

  decide({ input }: CreateOrderCommand): Promise<Decision<CreateOrderResult>> {
    const { checkout } = this.config;
    const page = this.pages.tokenOf(input.orderId);
    const events = decideOrder(
      {
        type: 'CreateOrder',
        data: {
          orderId: input.orderId,
          accountId: input.accountId,
          environment: input.environment,
          method: input.method,
          amount: input.amount,
          currency: input.currency,
          customer: input.customer,
          product: input.product ?? null,
          redirectUrl: input.redirectUrl ?? null,
          hookUrl: input.hookUrl ?? null,
          credentialId: input.credentialId,
          pageTokenHash: page.tokenHash,
          region: input.region,
          ttlMs: checkout.orderTtlMs,
          minAmount: checkout.minAmount,
          maxAmount: checkout.maxAmount,
          cardRegions: checkout.cardRegions,
        },
      },
      initialOrderState(),
      this.clock.now(input.environment),
    );
    const order = events.reduce(evolveOrder, initialOrderState());
    if (order.status !== 'PENDING') throw new Error('a new order must be pending');
    const result = { orderId: order.orderId, amount: order.amount, pageToken: page.token };
    return Promise.resolve({
      plan: {
        appends: [
          appendTo(orderStreamId(order.orderId), ORDER_STREAM_TYPE, 0, events, ORDER_EVENT_SCHEMA_VERSIONS),
        ],
        rows: input.hold ? [answerRow(input.hold, 200, storedCreateAnswer(result))] : [],
      },
      result,
      cached: [],
    });
  }
}
