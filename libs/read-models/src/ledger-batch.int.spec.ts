import type { SqlQueryable } from '@payouts/database';
import { LEDGER_STREAM_TYPE, LedgerEvent, ledgerStreamId } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { appendLedger, testBackends, TestDatabase, toNewEvent } from '@payouts/testing';
import { BalanceUnavailableError, catchUpLedger } from './balance.projection';
import { LOCK_BALANCE_SQL } from './balance-statements';
import { APPLY_CHANGES_SQL, MOVE_LEDGERS_SQL } from './ledger-batch-statements';
import { ProjectableEvent, StreamSource } from './projectable-event';
import { projectReadModels, READ_MODEL_TABLES } from './read-model.projection';
import { dumpReadModels } from './testing/dump-read-models';

/**
 * Batches of many ledgers at once (ledger-batch.ts: one statement for every ledger of a batch,
 * maturing and settlements included) against one ledger at a time, one event at a time (each
 * event a batch of its own through catchUpLedger) on the same events: every row of every
 * read-model table must be equal.
 */

const at = (minute: number) => `2026-04-01T09:${String(minute).padStart(2, '0')}:00.000Z`;
const AVAILABLE_ON = '2026-04-03T09:00:00.000Z';
const credit = (accountId: string, amount: string, minute: number): LedgerEvent => ({
  type: 'FundsCredited',
  data: {
    accountId,
    environment: 'sandbox',
    amount,
    reference: `c${minute}`,
    reason: 'top-up',
    at: at(minute),
  },
});
const payment = (orderId: number, gross: string, fee: string, net: string, minute: number): LedgerEvent => ({
  type: 'PaymentProceedsRecorded',
  data: {
    orderId,
    method: 'card',
    gross,
    fee,
    net,
    paidAt: at(minute),
    availableOn: AVAILABLE_ON,
    at: at(minute),
  },
});
const matured = (orderId: number, net: string, minute: number): LedgerEvent => ({
  type: 'PaymentProceedsMatured',
  data: { orderId, net, at: at(minute) },
});
const reserved = (
  payoutId: string,
  amount: string,
  fee: string,
  total: string,
  minute: number,
): LedgerEvent => ({
  type: 'PayoutFundsReserved',
  data: { payoutId, customerKey: `k_${payoutId}`, amount, fee, total, at: at(minute) },
});
const released = (payoutId: string, total: string, minute: number): LedgerEvent => ({
  type: 'PayoutFundsReleased',
  data: { payoutId, total, reason: 'cancelled', at: at(minute) },
});
const started = (settlementId: string, amount: string, minute: number): LedgerEvent => ({
  type: 'SettlementStarted',
  data: { settlementId, amount, retainedTarget: '0.00', trigger: 'daily', at: at(minute) },
});
const paid = (settlementId: string, amount: string, minute: number): LedgerEvent => ({
  type: 'SettlementPaid',
  data: { settlementId, amount, at: at(minute) },
});
const failed = (settlementId: string, amount: string, minute: number): LedgerEvent => ({
  type: 'SettlementFailed',
  data: { settlementId, amount, reason: 'bank refused', at: at(minute) },
});
const limits = (accountId: string, maxPayout: string, minute: number): LedgerEvent => ({
  type: 'LedgerLimitsSet',
  data: {
    accountId,
    environment: 'sandbox',
    limits: {
      feePerPayout: '0.50',
      minPayout: '1.00',
      maxPayout,
      maxOpenExposure: '900.00',
      maxPendingPerCustomer: 3,
    },
    at: at(minute),
  },
});

/** Each ledger's events before the mixed batch and in it; order 7001 is on two ledgers. */
function stories(prefix: string): { accountId: string; before: LedgerEvent[]; mixed: LedgerEvent[] }[] {
  const a = `${prefix}_a`;
  const b = `${prefix}_b`;
  const c = `${prefix}_c`;
  return [
    {
      accountId: a,
      before: [
        credit(a, '100.00', 1),
        payment(7001, '50.00', '1.50', '48.50', 2),
        payment(7002, '20.00', '0.00', '20.00', 3),
        reserved(`${a}_p1`, '10.00', '0.50', '10.50', 4),
      ],
      // Order 7001 matures before the first settlement starts (it takes it), 7002 after (the
      // second takes it); 7003 is recorded, matured and covered inside the batch; 7004 stays pending.
      mixed: [
        matured(7001, '48.50', 5),
        started(`${a}_s1`, '50.00', 6),
        matured(7002, '20.00', 7),
        payment(7003, '30.00', '1.00', '29.00', 8),
        matured(7003, '29.00', 9),
        paid(`${a}_s1`, '50.00', 10),
        started(`${a}_s2`, '20.00', 11),
        failed(`${a}_s2`, '20.00', 12),
        { type: 'PayoutFundsSettled', data: { payoutId: `${a}_p1`, total: '10.50', at: at(13) } },
        payment(7004, '5.00', '0.00', '5.00', 14),
      ],
    },
    {
      accountId: b,
      before: [
        limits(b, '500.00', 1),
        credit(b, '200.00', 2),
        payment(7001, '9.00', '0.00', '9.00', 3),
        started(`${b}_s0`, '150.00', 4),
      ],
      // Paid for a settlement started earlier; target and limits; a payout reserved and released in the batch.
      mixed: [
        paid(`${b}_s0`, '150.00', 5),
        { type: 'RetainedTargetSet', data: { amount: '25.00', at: at(6) } },
        limits(b, '700.00', 7),
        reserved(`${b}_p1`, '20.00', '0.50', '20.50', 8),
        released(`${b}_p1`, '20.50', 9),
        credit(b, '10.00', 10),
      ],
    },
    {
      accountId: c,
      before: [
        payment(7101, '40.00', '2.00', '38.00', 1),
        credit(c, '50.00', 2),
        reserved(`${c}_p1`, '5.00', '0.50', '5.50', 3),
      ],
      // A release whose reservation is an earlier batch's row; a failed settlement's return taken by the next.
      mixed: [
        released(`${c}_p1`, '5.50', 4),
        started(`${c}_s1`, '30.00', 5),
        failed(`${c}_s1`, '30.00', 6),
        matured(7101, '38.00', 7),
        started(`${c}_s2`, '80.00', 8),
        payment(7102, '12.00', '0.00', '12.00', 9),
      ],
    },
  ];
}

describe.each(testBackends())('the fast path of ledger batches on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const ledgers = stories(`acct_${backend.name}_mix`);
  // A fourth ledger whose earlier events were never projected: its row is missing, so the mixed
  // batch's statement leaves it to catchUpLedger, in the same projection as the others.
  const behind = stories(`acct_${backend.name}_behind`)[0]!;
  const recorded = new Map<string, ProjectableEvent[]>();

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    for (const story of [...ledgers, behind]) {
      const events = [...story.before, ...story.mixed];
      await appendLedger(store, story.accountId, events, { inline: false });
      const streamId = ledgerStreamId(story.accountId, 'sandbox');
      recorded.set(
        story.accountId,
        events.map((event, i) => ({
          streamId,
          streamType: LEDGER_STREAM_TYPE,
          streamVersion: i + 1,
          ...toNewEvent(event),
        })),
      );
    }
  });
  afterAll(async () => {
    await store.close?.();
    await database.drop();
  });

  const split = (story: { accountId: string; before: LedgerEvent[] }) => {
    const events = recorded.get(story.accountId)!;
    return { before: events.slice(0, story.before.length), mixed: events.slice(story.before.length) };
  };
  const dump = () => dumpReadModels(database.db);
  const clear = async () => {
    for (const table of READ_MODEL_TABLES) await database.db.query(`DELETE FROM ${table}`);
  };

  it('writes every row of a batch mixing maturing, covers and outcomes of several ledgers as one event at a time does', async () => {
    await clear();
    for (const story of ledgers) {
      const { before, mixed } = split(story);
      for (const event of [...before, ...mixed]) {
        await database.db.transaction((tx) => catchUpLedger(tx, store, event.streamId, [event]));
      }
    }
    const { mixed: late } = split(behind);
    await database.db.transaction((tx) => catchUpLedger(tx, store, late[0]!.streamId, late));
    const slow = await dump();

    await clear();
    await database.db.transaction((tx) =>
      projectReadModels(
        tx,
        store,
        ledgers.flatMap((s) => split(s).before),
      ),
    );
    const statements: [string, readonly unknown[] | undefined][] = [];
    await database.db.transaction((tx) => {
      const watched: SqlQueryable = {
        query: (sql, params) => (statements.push([sql, params]), tx.query(sql, params)),
        queryPrepared: (sql, params) => (statements.push([sql, params]), tx.queryPrepared(sql, params)),
      };
      const mixed = [...ledgers, behind].flatMap((s) => split(s).mixed);
      return projectReadModels(watched, store, mixed, { concurrentStreams: true });
    });
    // Two statements for the three ledgers at their versions; only the one behind was locked, then
    // brought up to date by the same two statements, for it alone.
    const moves = statements.filter(([sql]) => sql === MOVE_LEDGERS_SQL).map(([, params]) => params![0]);
    expect(moves.map((accounts) => new Set(accounts as string[]))).toEqual([
      new Set([...ledgers, behind].map((s) => s.accountId)),
      new Set([behind.accountId]),
    ]);
    expect(statements.filter(([sql]) => sql === APPLY_CHANGES_SQL)).toHaveLength(2);
    const locked = statements.filter(([sql]) => sql === LOCK_BALANCE_SQL).map(([, params]) => params![0]);
    expect(new Set(locked)).toEqual(new Set([behind.accountId]));
    expect(await dump()).toEqual(slow);
  });

  it('brings a row that is behind up through the batch: the gap read from the stream, within the lag bound', async () => {
    const story = stories(`acct_${backend.name}_lag`)[0]!;
    const events = [...story.before, ...story.mixed];
    await appendLedger(store, story.accountId, events, { inline: false });
    const streamId = ledgerStreamId(story.accountId, 'sandbox');
    const stored = (await store.readStream(streamId)).events;
    const reads: [number | undefined, number | undefined][] = [];
    const source: StreamSource = {
      readStream: (id, options) => (
        reads.push([options?.fromVersion, options?.toVersion]),
        store.readStream(id, options)
      ),
    };
    const balance = async () =>
      (
        await database.db.query<{ ledger_version: number; available: string }>(
          'SELECT ledger_version, available::text FROM payout_balances WHERE account_id = $1',
          [story.accountId],
        )
      ).rows;

    // A new ledger's first batch needs no read.
    await database.db.transaction((tx) => catchUpLedger(tx, source, streamId, stored.slice(0, 2)));
    expect(reads).toEqual([]);
    // Eleven events behind its last batch: refused with a bound of ten, taken with a bound of eleven.
    const last = stored.slice(13);
    await expect(
      database.db.transaction((tx) => catchUpLedger(tx, source, streamId, last, 10)),
    ).rejects.toBeInstanceOf(BalanceUnavailableError);
    reads.length = 0;
    await database.db.transaction((tx) => catchUpLedger(tx, source, streamId, last, 11));
    expect(reads).toEqual([[3, 13]]);
    const healed = await balance();
    expect(healed).toEqual([{ ledger_version: 14, available: expect.any(String) }]);
    // A replayed batch, whole or in part, changes nothing.
    const before = await dump();
    await database.db.transaction((tx) => catchUpLedger(tx, source, streamId, stored.slice(10)));
    await database.db.transaction((tx) => catchUpLedger(tx, source, streamId, stored));
    expect(await dump()).toEqual(before);
  });

  it('leaves each row as the events say: covered by the first settlement after it matured, pending until then', async () => {
    const [a, b] = [ledgers[0]!.accountId, ledgers[1]!.accountId];
    const { rows } = await database.db.query<{ row: string }>(
      `SELECT concat_ws(' ', account_id, type, coalesce(order_id::text, payout_id, settlement_id, '-'), status,
                        coalesce(included_in_settlement, '-')) AS row
         FROM balance_transactions WHERE account_id IN ($1, $2)
        ORDER BY account_id, ledger_version, event_row`,
      [a, b],
    );
    expect(rows.map((r) => r.row.replaceAll(a, 'A').replaceAll(b, 'B'))).toEqual([
      'A adjustment - available A_s1',
      'A payment 7001 available A_s1',
      'A payment_fee 7001 available A_s1',
      'A payment 7002 available A_s2',
      'A payout_reserved A_p1 available A_s1',
      'A settlement A_s1 paid A_s1',
      'A payment 7003 available A_s2',
      'A payment_fee 7003 available A_s2',
      'A settlement A_s2 failed A_s2',
      'A settlement_failed A_s2 available -',
      'A payout_paid A_p1 paid -',
      'A payment 7004 pending -',
      'B adjustment - available B_s0',
      'B payment 7001 pending -',
      'B settlement B_s0 paid B_s0',
      'B payout_reserved B_p1 available -',
      'B payout_released B_p1 available -',
      'B adjustment - available -',
    ]);
    const { rows: settlements } = await database.db.query<{ row: string }>(
      `SELECT concat_ws(' ', id, status, coalesce(failure_reason, '-'), paid_at IS NOT NULL, failed_at IS NOT NULL) AS row
         FROM settlements WHERE account_id = $1 ORDER BY id`,
      [a],
    );
    expect(settlements.map((r) => r.row.replaceAll(a, 'A'))).toEqual([
      'A_s1 paid - t f',
      'A_s2 failed bank refused f t',
    ]);
  });
});
