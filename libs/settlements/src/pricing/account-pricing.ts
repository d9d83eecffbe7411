import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler } from '@nestjs/cqrs';
import type { Clock } from '@payouts/clock';
import {
  AccountPricing,
  Environment,
  evolvePricing,
  parsePricing,
  PRICING_AGGREGATE,
  PRICING_EVENT_SCHEMA_VERSIONS,
  PRICING_STREAM_TYPE,
  PricingEvent,
  PricingInput,
  pricingStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { Decides, Decision, loadAggregate, oneStreamDecision, WritePath } from '@payouts/write-side';

/**
 * The operator sets an account's pricing in one environment: every method's percent and fixed
 * fee and clearing days, a method left out keeping the default. parsePricing refuses what is
 * malformed (invalid_request with the field as param), never rounding it.
 */
export class SetPricingCommand extends Command<AccountPricing> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly input: PricingInput,
  ) {
    super();
  }
}

/** The pricing in force (the defaults until the operator sets one); a short stream, read whole. */
export function loadPricing(store: EventStore, accountId: string, environment: Environment) {
  return loadAggregate(store, pricingStreamId(accountId, environment), PRICING_AGGREGATE);
}

@CommandHandler(SetPricingCommand)
export class SetPricingHandler implements Decides<SetPricingCommand, AccountPricing> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly writes: WritePath,
  ) {}

  execute(command: SetPricingCommand): Promise<AccountPricing> {
    return this.writes.execute(command, this);
  }

  async decide({ accountId, environment, input }: SetPricingCommand): Promise<Decision<AccountPricing>> {
    const pricing = parsePricing(input);
    const loaded = await loadPricing(this.store, accountId, environment);
    const event: PricingEvent = {
      type: 'AccountPricingSet',
      data: { accountId, environment, pricing, at: this.clock.now(environment).toISOString() },
    };
    const decision = oneStreamDecision({
      streamId: pricingStreamId(accountId, environment),
      streamType: PRICING_STREAM_TYPE,
      schemaVersions: PRICING_EVENT_SCHEMA_VERSIONS,
      loaded,
      events: [event],
      evolve: evolvePricing,
      result: (state) => state,
    });
    // Read whole on every use, never kept in the aggregate cache.
    return { ...decision, cached: [] };
  }
}

/** The pricing an account pays in one environment, for the operator's GET. */
@Injectable()
export class PricingQueries {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async pricingOf(accountId: string, environment: Environment): Promise<AccountPricing> {
    return (await loadPricing(this.store, accountId, environment)).state;
  }
}
