import { cardAvailableIn, currenciesOfRegion, DEFAULT_CARD_REGIONS } from './checkout-regions';

describe('Checkout regions', () => {
  it.each<[string, string[]]>([
    ['US', ['USD']],
    ['CA', ['CAD', 'USD']],
    ['GB', ['GBP', 'EUR', 'USD']],
    ['EU', ['EUR', 'USD']],
    ['AU', ['AUD', 'USD']],
  ])('An account in %s takes orders in %j.', (region, currencies) => {
    expect(currenciesOfRegion(region)).toEqual(currencies);
  });

  it.each(['NZ', 'JP', 'BR', '', 'constructor', 'us'])(
    'An account in any other region (%j) takes orders in USD only.',
    (region) => {
      expect(currenciesOfRegion(region)).toEqual(['USD']);
    },
  );

  it('The card method is offered by default in US, CA, GB, EU, AU, NZ, JP and SG.', () => {
    expect(DEFAULT_CARD_REGIONS).toEqual(['US', 'CA', 'GB', 'EU', 'AU', 'NZ', 'JP', 'SG']);
    for (const region of DEFAULT_CARD_REGIONS)
      expect(cardAvailableIn(region, DEFAULT_CARD_REGIONS)).toBe(true);
  });

  it.each(['BR', 'IN', 'ZA', '', 'us'])(
    'The card method is not offered in %j with the default regions.',
    (region) => {
      expect(cardAvailableIn(region, DEFAULT_CARD_REGIONS)).toBe(false);
    },
  );

  it('The deployment may set its own card regions.', () => {
    expect(cardAvailableIn('BR', ['BR'])).toBe(true);
    expect(cardAvailableIn('US', ['BR'])).toBe(false);
    expect(cardAvailableIn('US', [])).toBe(false);
  });
});
