import { Aggregate, currentVersionsOnly } from '../kernel/aggregate';
import { AccountPricing, DEFAULT_PRICING } from './pricing';
import { PRICING_EVENT_SCHEMA_VERSIONS, PRICING_STREAM_TYPE, PricingEvent } from './pricing.events';

/** The pricing in force: the defaults until the operator sets one. */
export function evolvePricing(_state: AccountPricing, event: PricingEvent): AccountPricing {
  return event.data.pricing;
}

/** An account's pricing in one environment, as it is loaded everywhere. */
export const PRICING_AGGREGATE: Aggregate<PricingEvent, AccountPricing> = {
  streamType: PRICING_STREAM_TYPE,
  initial: () => DEFAULT_PRICING,
  evolve: evolvePricing,
  upcast: currentVersionsOnly(PRICING_STREAM_TYPE, PRICING_EVENT_SCHEMA_VERSIONS),
};
