import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import {
  decideOrder,
  DomainError,
  evolveOrder,
  ORDER_AGGREGATE,
  ORDER_EVENT_SCHEMA_VERSIONS,
  ORDER_STREAM_TYPE,
  orderStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { Decides, Decision, loadAggregate, oneStreamDecision, WritePath } from '@payouts/write-side';

/** The worker's expiry of an unpaid order past its deadline; a second firing changes nothing. */
export class ExpireOrderCommand extends Command<{ expired: boolean }> {
  constructor(readonly orderId: number) {
    super();
  }
}

@CommandHandler(ExpireOrderCommand)
export class ExpireOrderHandler
  implements
    ICommandHandler<ExpireOrderCommand, { expired: boolean }>,
    Decides<ExpireOrderCommand, { expired: boolean }>
{
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly writes: WritePath,
  ) {}

  execute(command: ExpireOrderCommand): Promise<{ expired: boolean }> {
    return this.writes.execute(command, this);
  }

  async decide({ orderId }: ExpireOrderCommand): Promise<Decision<{ expired: boolean }>> {
    const streamId = orderStreamId(orderId);
    const order = await loadAggregate(this.store, streamId, ORDER_AGGREGATE);
    if (order.state.status === 'none') throw new DomainError('not_found', 'no such order');
    const events = decideOrder(
      { type: 'ExpireOrder', data: { orderId } },
      order.state,
      this.clock.now(order.state.environment),
    );
    const decision = oneStreamDecision({
      streamId,
      streamType: ORDER_STREAM_TYPE,
      schemaVersions: ORDER_EVENT_SCHEMA_VERSIONS,
      loaded: order,
      events,
      evolve: evolveOrder,
      result: () => ({ expired: events.length > 0 }),
    });
    // Orders are short-lived streams: read whole, never kept in the aggregate cache.
    return { ...decision, cached: [] };
  }
}
