import Big from 'big.js';
import { ledgerStreamId } from '@payouts/domain';
import { FEED_START, PostgresEventStore } from '@payouts/event-store';
import {
  appendLedger,
  assertMoneyInvariants,
  fundsFlowEvents,
  testBackends,
  TestDatabase,
} from '@payouts/testing';
import { transactionId } from './balance-transactions';
import { projectReadModels, READ_MODEL_TABLES } from './read-model.projection';
import { dumpReadModels } from './testing/dump-read-models';

type Row = Record<string, string | null>;

describe.each(testBackends())('balance transactions and settlements on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
  });
  afterAll(async () => {
    await store.close?.();
    await database.drop();
  });

  const transactions = async (accountId: string): Promise<Row[]> =>
    (
      await database.db.query<Row>(
        `SELECT id, ledger_version::text, type, currency, amount::text, fee::text, net::text, status,
                available_on::text, order_id::text, payout_id, settlement_id, description,
                running_pending::text, running_available::text, running_customer_payout_holds::text,
                running_merchant_settlement_holds::text, included_in_settlement, created_at::text
           FROM balance_transactions WHERE account_id = $1 ORDER BY currency, balance_transactions.ledger_version, type`,
        [accountId],
      )
    ).rows;
  const dump = () => dumpReadModels(database.db);
  const replayAll = async (batchSize: number) => {
    const all = await store.readFeed(FEED_START, 10_000);
    for (let i = 0; i < all.length; i += batchSize) {
      await database.db.transaction((tx) => projectReadModels(tx, store, all.slice(i, i + batchSize)));
    }
  };

  const ACCOUNT = `acct_${backend.name}_flow`;
  let inline: string[];

  it('writes one row per money movement, inline, event by event, with the running balances after each', async () => {
    for (const event of fundsFlowEvents(ACCOUNT)) await appendLedger(store, ACCOUNT, [event]);
    const rows = await transactions(ACCOUNT);
    const brief = rows.map((r) => [
      r.ledger_version,
      r.type,
      r.amount,
      r.fee,
      r.net,
      r.status,
      r.running_pending,
      r.running_available,
      r.running_customer_payout_holds,
      r.running_merchant_settlement_holds,
      r.included_in_settlement,
    ]);
    expect(brief).toEqual([
      ['2', 'adjustment', '100.00', '0.00', '100.00', 'available', '0.00', '100.00', '0.00', '0.00', 'stl_1'],
      ['3', 'payment', '50.00', '0.00', '50.00', 'available', '50.00', '100.00', '0.00', '0.00', 'stl_1'],
      ['3', 'payment_fee', '-1.75', '0.00', '-1.75', 'available', '48.25', '100.00', '0.00', '0.00', 'stl_1'],
      ['4', 'payment', '10.00', '0.00', '10.00', 'available', '58.25', '100.00', '0.00', '0.00', 'stl_2'],
      [
        '5',
        'payout_reserved',
        '-20.00',
        '0.50',
        '-20.50',
        'available',
        '58.25',
        '79.50',
        '20.50',
        '0.00',
        'stl_1',
      ],
      [
        '6',
        'payout_reserved',
        '-5.00',
        '0.50',
        '-5.50',
        'available',
        '58.25',
        '74.00',
        '26.00',
        '0.00',
        'stl_1',
      ],
      [
        '7',
        'payout_released',
        '20.00',
        '-0.50',
        '20.50',
        'available',
        '58.25',
        '94.50',
        '5.50',
        '0.00',
        'stl_1',
      ],
      ['8', 'payout_paid', '-5.50', '0.00', '0.00', 'paid', '58.25', '94.50', '0.00', '0.00', 'stl_1'],
      [
        '11',
        'settlement',
        '-132.75',
        '0.00',
        '-132.75',
        'failed',
        '10.00',
        '10.00',
        '0.00',
        '132.75',
        'stl_1',
      ],
      [
        '12',
        'settlement_failed',
        '132.75',
        '0.00',
        '132.75',
        'available',
        '10.00',
        '142.75',
        '0.00',
        '0.00',
        'stl_2',
      ],
      ['14', 'settlement', '-142.75', '0.00', '-142.75', 'paid', '0.00', '10.00', '0.00', '142.75', 'stl_2'],
    ]);
    expect(rows.find((r) => r.type === 'adjustment')!.description).toBe('opening credit');
    expect(rows.find((r) => r.type === 'payout_released')!.description).toBe('cancelled');
    expect(rows.filter((r) => r.order_id === '1000001').map((r) => r.available_on)).toEqual([
      expect.stringMatching(/^2026-03-12 10:00:00/),
      expect.stringMatching(/^2026-03-12 10:00:00/),
    ]);
    const streamId = ledgerStreamId(ACCOUNT, 'sandbox');
    expect(rows[0]!.id).toBe(transactionId(streamId, 2, 'adjustment'));
    expect(rows.every((r) => /^txn_[0-9a-f]{24}$/.test(r.id!))).toBe(true);

    // Σ net over the ledger = pending + available, and the row's figures hold both equations.
    const balance = await assertMoneyInvariants(database.db, ACCOUNT, 'sandbox');
    const net = rows.reduce((sum, r) => sum.plus(r.net!), new Big(0));
    expect(net.toFixed(2)).toBe(new Big(balance.pending!).plus(balance.available!).toFixed(2));
    expect(balance).toMatchObject({
      pending: '0.00',
      available: '10.00',
      gross: '60.00',
      fees: '1.75',
      matured: '58.25',
      credits: '100.00',
      funds_in: '158.25',
      settlements_paid: '142.75',
      settled: '5.50',
    });
  });

  it('keeps a payment pending until it matures and a settlement in transit until its outcome', async () => {
    const account = `acct_${backend.name}_steps`;
    const events = fundsFlowEvents(account);
    const statuses = async () =>
      (await transactions(account)).map((r) => `${r.type}:${r.status}:${r.included_in_settlement ?? '-'}`);
    await appendLedger(store, account, events.slice(0, 4));
    expect(await statuses()).toEqual([
      'adjustment:available:-',
      'payment:pending:-',
      'payment_fee:pending:-',
      'payment:pending:-',
    ]);
    await appendLedger(store, account, events.slice(4, 9)); // two payouts, order 1000001 matures
    expect(await statuses()).toEqual([
      'adjustment:available:-',
      'payment:available:-',
      'payment_fee:available:-',
      'payment:pending:-',
      'payout_reserved:available:-',
      'payout_reserved:available:-',
      'payout_released:available:-',
      'payout_paid:paid:-',
    ]);
    await appendLedger(store, account, events.slice(9, 11)); // retained target, stl_1 starts
    expect(await statuses()).toEqual([
      'adjustment:available:stl_1',
      'payment:available:stl_1',
      'payment_fee:available:stl_1',
      'payment:pending:-',
      'payout_reserved:available:stl_1',
      'payout_reserved:available:stl_1',
      'payout_released:available:stl_1',
      'payout_paid:paid:stl_1',
      'settlement:in_transit:stl_1',
    ]);
    await appendLedger(store, account, [events[11]!]); // stl_1 fails
    expect((await statuses()).slice(-2)).toEqual([
      'settlement:failed:stl_1',
      // The money is available again: the next settlement takes it.
      'settlement_failed:available:-',
    ]);
  });

  it('keeps each settlement with its amount, trigger, outcome and times', async () => {
    const { rows } = await database.db.query<Row>(
      `SELECT id, currency, ledger_version::text, amount::text, status, failure_reason, trigger,
              retained_target::text, paid_at IS NOT NULL AS paid, failed_at IS NOT NULL AS failed
         FROM settlements WHERE account_id = $1 ORDER BY id`,
      [ACCOUNT],
    );
    expect(rows).toEqual([
      {
        id: 'stl_1',
        currency: 'USD',
        ledger_version: '11',
        amount: '132.75',
        status: 'failed',
        failure_reason: 'account closed',
        trigger: 'daily',
        retained_target: '10.00',
        paid: false,
        failed: true,
      },
      {
        id: 'stl_2',
        currency: 'USD',
        ledger_version: '14',
        amount: '142.75',
        status: 'paid',
        failure_reason: null,
        trigger: 'manual',
        retained_target: '10.00',
        paid: true,
        failed: false,
      },
    ]);
  });

  it('changes nothing when the projector projects the same events again, all at once or one by one', async () => {
    inline = await dump(); // everything so far was projected inline only
    await replayAll(10_000);
    await replayAll(1);
    await replayAll(3);
    expect(await dump()).toEqual(inline);
  });

  it('rebuilds the same rows from the events alone, in any batch size (the slow path)', async () => {
    for (const batchSize of [10_000, 1, 4]) {
      for (const table of READ_MODEL_TABLES) await database.db.query(`DELETE FROM ${table}`);
      await replayAll(batchSize);
      expect(await dump()).toEqual(inline);
    }
  });
});
