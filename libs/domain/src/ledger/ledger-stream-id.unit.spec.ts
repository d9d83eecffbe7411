import { ledgerOwnerFromStreamId, ledgerStreamId } from './ledger.events';

describe('ledger stream ids', () => {
  it.each([
    ['acct_1', 'sandbox'],
    ['acct-with-dashes-production', 'production'],
    ['a', 'sandbox'],
  ] as const)('round-trips account %s in %s', (accountId, environment) => {
    expect(ledgerOwnerFromStreamId(ledgerStreamId(accountId, environment))).toEqual({
      accountId,
      environment,
    });
  });

  it.each(['payout-po_1', 'ledger-acct_1', 'ledger--sandbox', 'ledger-acct_1-staging', 'xledger-a-sandbox'])(
    'refuses %s, which ledgerStreamId did not make',
    (streamId) => {
      expect(ledgerOwnerFromStreamId(streamId)).toBeNull();
    },
  );
});
