import { Environment } from '../kernel/decider';
import { AccountPricing } from './pricing';

/**
 * The operator's pricing of one account in one environment (`pricing-<account_id>-<environment>`).
 * The last event is the pricing in force; a paid order records the fee it was charged in its
 * ledger, so changing the pricing never changes a recorded payment.
 */
export type AccountPricingSet = {
  type: 'AccountPricingSet';
  data: { accountId: string; environment: Environment; pricing: AccountPricing; at: string };
};

export type PricingEvent = AccountPricingSet;

export const PRICING_EVENT_SCHEMA_VERSIONS: Record<PricingEvent['type'], number> = {
  AccountPricingSet: 1,
};

export const PRICING_STREAM_TYPE = 'pricing';
export const pricingStreamId = (accountId: string, environment: Environment): string =>
  `pricing-${accountId}-${environment}`;
