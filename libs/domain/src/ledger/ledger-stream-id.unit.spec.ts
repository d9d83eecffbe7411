import { ledgerOwnerFromStreamId, ledgerStreamId } from './ledger.events';

describe('ledger stream ids', () => {
  it.each([
    ['acct_1', 'sandbox'],
    ['acct-with-dashes-production', 'production'],
    ['a', 'sandbox'],
  ] as const)('round-trips account %s in %s, on the USD ledger', (accountId, environment) => {
    expect(ledgerOwnerFromStreamId(ledgerStreamId(accountId, environment))).toEqual({
      accountId,
      environment,
      currency: 'USD',
    });
  });

  it('keeps the USD ledger at the stream id it had before other currencies', () => {
    expect(ledgerStreamId('acct_1', 'sandbox', 'USD')).toBe('ledger-acct_1-sandbox');
  });

  it.each([
    ['acct_1', 'sandbox', 'EUR'],
    ['acct-with-dashes-sandbox', 'production', 'GBP'],
  ] as const)('round-trips account %s in %s in %s', (accountId, environment, currency) => {
    const streamId = ledgerStreamId(accountId, environment, currency);
    expect(streamId).toBe(`ledger-${accountId}-${environment}-${currency}`);
    expect(ledgerOwnerFromStreamId(streamId)).toEqual({ accountId, environment, currency });
  });

  it.each([
    'payout-po_1',
    'ledger-acct_1',
    'ledger--sandbox',
    'ledger-acct_1-staging',
    'xledger-a-sandbox',
    'ledger-acct_1-sandbox-USD',
    'ledger-acct_1-sandbox-eur',
  ])('refuses %s, which ledgerStreamId did not make', (streamId) => {
    expect(ledgerOwnerFromStreamId(streamId)).toBeNull();
  });
});
