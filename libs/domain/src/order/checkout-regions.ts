/**
 * What a checkout may charge in each account region (docs/design.md#regions-and-currencies). The
 * region is the one the operator gave when creating the account; a region not listed here can still
 * take payments, in USD only, so that a new region never locks its merchants out of checkout.
 */
const REGION_CURRENCIES: ReadonlyMap<string, readonly string[]> = new Map([
  ['US', ['USD']],
  ['CA', ['CAD', 'USD']],
  ['GB', ['GBP', 'EUR', 'USD']],
  ['EU', ['EUR', 'USD']],
  ['AU', ['AUD', 'USD']],
]);

const OTHER_REGION_CURRENCIES: readonly string[] = ['USD'];

/** The card method's regions when the deployment does not set its own list. */
export const DEFAULT_CARD_REGIONS: readonly string[] = ['US', 'CA', 'GB', 'EU', 'AU', 'NZ', 'JP', 'SG'];

/** The currencies an order of an account in `region` may be in, the region's own first. */
export function currenciesOfRegion(region: string): readonly string[] {
  return REGION_CURRENCIES.get(region) ?? OTHER_REGION_CURRENCIES;
}

/**
 * True when the card method may be offered to an account in `region`. Regions are compared as
 * written (upper-case codes), like currenciesOfRegion: guessing at "gb" here would let the two
 * disagree about the same account.
 */
export function cardAvailableIn(region: string, cardRegions: readonly string[]): boolean {
  return cardRegions.includes(region);
}
