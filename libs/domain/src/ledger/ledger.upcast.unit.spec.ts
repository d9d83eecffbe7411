import { REASON_NOT_RECORDED, upcastLedgerEvent } from './ledger.upcast';

const CREDIT_V1 = {
  accountId: 'acct_1',
  environment: 'sandbox',
  amount: '10.00',
  reference: 'wire 42',
  at: '2026-01-01T00:00:00.000Z',
};

describe('reading stored ledger events through their upcasters', () => {
  it('reads a FundsCredited of schema 1, which had no reason, with the reason marked as not recorded', () => {
    expect(upcastLedgerEvent({ type: 'FundsCredited', schemaVersion: 1, data: CREDIT_V1 })).toEqual({
      type: 'FundsCredited',
      data: { ...CREDIT_V1, reason: REASON_NOT_RECORDED },
    });
  });

  it('reads a FundsCredited of schema 2 as it was written', () => {
    const data = { ...CREDIT_V1, reason: 'chargeback reversal' };
    expect(upcastLedgerEvent({ type: 'FundsCredited', schemaVersion: 2, data })).toEqual({
      type: 'FundsCredited',
      data,
    });
  });

  it('refuses a schema version newer than this build reads', () => {
    expect(() => upcastLedgerEvent({ type: 'FundsCredited', schemaVersion: 3, data: CREDIT_V1 })).toThrow(
      /schema version 3/,
    );
  });

  it('refuses an unknown event type', () => {
    expect(() => upcastLedgerEvent({ type: 'FundsStolen', schemaVersion: 1, data: {} })).toThrow(/unknown/);
  });
});
