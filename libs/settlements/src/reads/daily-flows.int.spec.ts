import type { LedgerEvent } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { appendLedger, testBackends, TestDatabase } from '@payouts/testing';
import { dailyFlows } from './daily-flows';

const payment = (orderId: number, gross: string, fee: string, net: string, at: string): LedgerEvent => ({
  type: 'PaymentProceedsRecorded',
  data: { orderId, method: 'card', gross, fee, net, paidAt: at, availableOn: '2026-04-01T00:00:00.000Z', at },
});

/**
 * A USD ledger whose rows fall either side of day boundaries in UTC, New York (UTC−4 in March
 * 2026, UTC−5 in February) and Tokyo (UTC+9), with every row type the chart must leave out: an
 * adjustment, a reserved and a released payout, a settlement that failed and its return.
 */
function ledgerEvents(accountId: string): LedgerEvent[] {
  return [
    {
      type: 'LedgerLimitsSet',
      data: {
        accountId,
        environment: 'sandbox',
        limits: {
          feePerPayout: '0.50',
          minPayout: '1.00',
          maxPayout: '500.00',
          maxOpenExposure: '1000.00',
          maxPendingPerCustomer: 5,
        },
        at: '2026-01-01T00:00:00.000Z',
      },
    },
    payment(1000001, '100.00', '3.20', '96.80', '2026-02-01T12:00:00.000Z'), // before every window
    payment(1000002, '3.00', '0.00', '3.00', '2026-02-09T00:00:00.000Z'), // the UTC window's first instant
    {
      type: 'FundsCredited',
      data: {
        accountId,
        environment: 'sandbox',
        amount: '100.00',
        reference: 'c1',
        reason: 'opening credit',
        at: '2026-03-01T12:00:00.000Z',
      },
    },
    payment(1000003, '50.00', '1.75', '48.25', '2026-03-09T23:30:00.000Z'),
    payment(1000004, '5.00', '0.45', '4.55', '2026-03-10T02:00:00.000Z'),
    payment(1000005, '10.00', '0.00', '10.00', '2026-03-10T10:00:00.000Z'),
    {
      type: 'PayoutFundsReserved',
      data: {
        payoutId: 'po_a',
        customerKey: 'k1',
        amount: '20.00',
        fee: '0.50',
        total: '20.50',
        at: '2026-03-10T10:05:00.000Z',
      },
    },
    {
      type: 'PayoutFundsSettled',
      data: { payoutId: 'po_a', total: '20.50', at: '2026-03-10T11:00:00.000Z' },
    },
    {
      type: 'PayoutFundsReserved',
      data: {
        payoutId: 'po_b',
        customerKey: 'k2',
        amount: '5.00',
        fee: '0.50',
        total: '5.50',
        at: '2026-03-10T11:05:00.000Z',
      },
    },
    {
      type: 'PayoutFundsReleased',
      data: { payoutId: 'po_b', total: '5.50', reason: 'cancelled', at: '2026-03-10T11:10:00.000Z' },
    },
    {
      type: 'SettlementStarted',
      data: {
        settlementId: 'stl_f',
        amount: '30.00',
        retainedTarget: '0.00',
        trigger: 'manual',
        at: '2026-03-10T12:00:00.000Z',
      },
    },
    {
      type: 'SettlementFailed',
      data: {
        settlementId: 'stl_f',
        amount: '30.00',
        reason: 'account closed',
        at: '2026-03-10T12:30:00.000Z',
      },
    },
    {
      type: 'SettlementStarted',
      data: {
        settlementId: 'stl_p',
        amount: '40.00',
        retainedTarget: '0.00',
        trigger: 'manual',
        at: '2026-03-10T13:00:00.000Z',
      },
    },
    {
      type: 'SettlementPaid',
      data: { settlementId: 'stl_p', amount: '40.00', at: '2026-03-10T13:30:00.000Z' },
    },
    payment(1000006, '7.00', '0.00', '7.00', '2026-03-11T00:00:00.000Z'), // UTC's tomorrow, not New York's or Tokyo's
  ];
}

const NOW = new Date('2026-03-10T20:00:00.000Z');

/** The days that are not all zeros, as [date, in, payouts, settlements]. */
const nonZero = (days: { date: string; paymentsIn: string; payoutsOut: string; settlementsOut: string }[]) =>
  days
    .filter((d) => [d.paymentsIn, d.payoutsOut, d.settlementsOut].some((x) => x !== '0.00'))
    .map((d) => [d.date, d.paymentsIn, d.payoutsOut, d.settlementsOut]);

describe.each(testBackends())('the Home chart daily flows on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const ACCOUNT = `acct_${backend.name}_daily`;
  const base = { accountId: ACCOUNT, environment: 'sandbox' as const, currency: 'USD', now: NOW };

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    await appendLedger(store, ACCOUNT, ledgerEvents(ACCOUNT));
    // Neither another account's ledger nor the account's EUR ledger may leak into its USD figures.
    await appendLedger(store, `${ACCOUNT}_other`, [
      payment(1000007, '900.00', '0.00', '900.00', '2026-03-10T09:00:00.000Z'),
    ]);
    await appendLedger(
      store,
      ACCOUNT,
      [payment(1000008, '800.00', '0.00', '800.00', '2026-03-10T09:00:00.000Z')],
      {
        currency: 'EUR',
      },
    );
  });
  afterAll(async () => {
    await store.close?.();
    await database.drop();
  });

  it('gives 30 UTC days ending today, zeros included, the window starting at the first day’s midnight', async () => {
    const flows = await dailyFlows(database.db, base);
    expect(flows).toMatchObject({
      currency: 'USD',
      timeZone: 'UTC',
      from: '2026-02-09T00:00:00.000Z',
      until: '2026-03-11T00:00:00.000Z',
    });
    expect(flows.days).toHaveLength(30);
    expect(flows.days[0]!.date).toBe('2026-02-09');
    expect(flows.days[29]!.date).toBe('2026-03-10');
    // Net proceeds in; only the payout that was paid and the settlement that did not fail go out.
    expect(nonZero(flows.days)).toEqual([
      ['2026-02-09', '3.00', '0.00', '0.00'],
      ['2026-03-09', '48.25', '0.00', '0.00'],
      ['2026-03-10', '14.55', '20.50', '40.00'],
    ]);
  });

  it('groups by the days of the time zone it is given', async () => {
    const newYork = await dailyFlows(database.db, { ...base, timeZone: 'America/New_York' });
    expect([newYork.from, newYork.until]).toEqual(['2026-02-09T05:00:00.000Z', '2026-03-11T04:00:00.000Z']);
    // 02:00 UTC on the 10th is 22:00 on the 9th there; 00:00 UTC on the 11th is 20:00 on the 10th.
    expect(nonZero(newYork.days)).toEqual([
      ['2026-03-09', '52.80', '0.00', '0.00'],
      ['2026-03-10', '17.00', '20.50', '40.00'],
    ]);
    // 20:00 UTC is already 05:00 on the 11th in Tokyo: the window moves a day on.
    const tokyo = await dailyFlows(database.db, { ...base, timeZone: 'Asia/Tokyo' });
    expect(tokyo.days.map((d) => d.date).slice(-2)).toEqual(['2026-03-10', '2026-03-11']);
    expect(nonZero(tokyo.days)).toEqual([
      ['2026-03-10', '62.80', '20.50', '40.00'],
      ['2026-03-11', '7.00', '0.00', '0.00'],
    ]);
  });

  it('reads only the ledger asked for: another currency, environment or account is its own', async () => {
    expect(nonZero((await dailyFlows(database.db, { ...base, currency: 'EUR' })).days)).toEqual([
      ['2026-03-10', '800.00', '0.00', '0.00'],
    ]);
    expect(nonZero((await dailyFlows(database.db, { ...base, environment: 'production' })).days)).toEqual([]);
    expect(nonZero((await dailyFlows(database.db, { ...base, accountId: 'acct_nobody' })).days)).toEqual([]);
  });

  it('takes another number of days, and refuses an unknown time zone before querying', async () => {
    const week = await dailyFlows(database.db, { ...base, days: 1 });
    expect(week.days).toEqual([
      { date: '2026-03-10', paymentsIn: '14.55', payoutsOut: '20.50', settlementsOut: '40.00' },
    ]);
    await expect(dailyFlows(database.db, { ...base, timeZone: 'Europe/Atlantis' })).rejects.toThrow(
      /unknown time zone/,
    );
  });
});
