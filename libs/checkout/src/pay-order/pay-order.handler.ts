import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import {
  decideOrder,
  DomainError,
  evolveOrder,
  initialOrderState,
  ORDER_EVENT_SCHEMA_VERSIONS,
  ORDER_STREAM_TYPE,
  orderStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { appendTo, Decides, Decision, loadAggregate, WritePath } from '@payouts/write-side';
import { ACQUIRER } from '../acquirer/acquirer.port';
import type { Acquirer } from '../acquirer/acquirer.port';
import { PayOrderCommand, PayOrderResult } from './pay-order.command';

/**
 * One attempt to pay an order: the acquirer answers, and the order records a declined attempt
 * (it stays PENDING, the payer may try again) or becomes SUCCESS. The acquirer is asked only for
 * an order that can still be paid, and only once per attempt: a version conflict (two attempts at
 * once) decides again on the order's new state, which a paid order then refuses.
 */
@CommandHandler(PayOrderCommand)
export class PayOrderHandler
  implements ICommandHandler<PayOrderCommand, PayOrderResult>, Decides<PayOrderCommand, PayOrderResult>
{
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ACQUIRER) private readonly acquirer: Acquirer,
    private readonly writes: WritePath,
  ) {}

  execute(command: PayOrderCommand): Promise<PayOrderResult> {
    return this.writes.execute(command, this);
  }

  async decide({ orderId, instrument }: PayOrderCommand): Promise<Decision<PayOrderResult>> {
    const streamId = orderStreamId(orderId);
    const order = await loadAggregate(this.store, streamId, evolveOrder, initialOrderState());
    if (order.state.status === 'none') throw new DomainError('not_found', 'no such order');
    const now = this.clock.now(order.state.environment);
    const state = order.state;
    if (state.status !== 'PENDING' || now.getTime() >= Date.parse(state.expiresAt)) {
      throw new DomainError('order_not_payable', `order ${orderId} is ${state.status} and cannot be paid`);
    }
    const outcome = await this.acquirer.authorize({
      orderId,
      environment: state.environment,
      method: state.method,
      amount: state.amount,
      currency: state.currency,
      instrument,
    });
    const events = decideOrder(
      outcome.approved
        ? { type: 'MarkOrderPaid', data: { orderId, instrument: outcome.instrument } }
        : {
            type: 'RecordDeclinedAttempt',
            data: { orderId, reason: outcome.reason, instrument: outcome.instrument },
          },
      state,
      now,
    );
    const after = events.reduce(evolveOrder, state);
    let result: PayOrderResult;
    if (outcome.approved && after.status === 'SUCCESS') result = { paid: true, order: after };
    else if (!outcome.approved && after.status === 'PENDING')
      result = { paid: false, reason: outcome.reason, order: after };
    else throw new Error(`order ${orderId} did not move as its attempt said`);
    return {
      plan: {
        appends: [appendTo(streamId, ORDER_STREAM_TYPE, order.version, events, ORDER_EVENT_SCHEMA_VERSIONS)],
        rows: [],
      },
      result,
      cached: [],
    };
  }
}
