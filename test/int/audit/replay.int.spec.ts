import Big from 'big.js';
import { migrate, SqlClient, SqlQueryable } from '@payouts/database';
import { LEDGER_EVENT_SCHEMA_VERSIONS, LedgerEvent, REASON_NOT_RECORDED } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { READ_MODEL_TABLES } from '@payouts/read-models';
import {
  appendLedger,
  cliDatabase,
  CliDatabase,
  fundsFlowEvents,
  testBackends,
  usingCliDatabase,
} from '@payouts/testing';
import {
  appendHistory,
  createPayout,
  projectEverything,
} from '../../../libs/audit/src/testing/audit-history';
import { runAudit } from '../../../tools/audit/main';

interface Run {
  code: number;
  stdout: string[];
  stderr: string[];
}

/** `npm run audit -- replay …` in this process, on the database the environment names. */
async function replay(args: string[], env: Record<string, string>): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const output = {
    line: async (text: string) => void stdout.push(text),
    progress: (text: string) => void stderr.push(text),
  };
  const code = await runAudit(['replay', ...args], output, env);
  return { code, stdout, stderr };
}

/** A digest of every live table replay could touch, to show it touched none. */
async function liveChecksums(db: SqlQueryable): Promise<Record<string, string>> {
  const sums: Record<string, string> = {};
  for (const table of [...READ_MODEL_TABLES, 'events', 'event_streams', 'subscription_checkpoints']) {
    const { rows } = await db.query<{ sum: string }>(
      `SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS sum FROM public.${table} t`,
    );
    sums[table] = rows[0]!.sum;
  }
  return sums;
}

async function replaySchemas(db: SqlQueryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'audit_replay%' ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

const SUMMARY = (events: number, differences: number, afterCheckpoint: number) =>
  new RegExp(
    `^summary: ${events} events replayed in [0-9.]+ s \\(\\d+ events/s\\) up to position \\d+; \\d+ rows compared in 5 tables; ` +
      `${differences} difference\\(s\\); ${afterCheckpoint} event\\(s\\) after the projector's checkpoint \\(position \\d+\\) applied to the live copy$`,
  );

/** Payouts, an order and a ledger projected by the projector only; a ledger with settlements projected inline, as commands do. */
async function projectedHistory(db: SqlClient): Promise<number> {
  const store = new PostgresEventStore(db);
  let events = await appendHistory(store);
  for (const event of fundsFlowEvents('acc_flow')) {
    await appendLedger(store, 'acc_flow', [event]);
    events += 1;
  }
  await projectEverything(store);
  await store.close();
  return events;
}

describe.each(testBackends().map((backend) => backend.name))('npm run audit -- replay on %s', (backend) => {
  let database: CliDatabase;
  const using = <T>(work: (db: SqlClient) => Promise<T>) => usingCliDatabase(database, work);

  beforeEach(async () => {
    database = await cliDatabase(backend);
    await using((db) => migrate(db));
  });
  afterEach(() => database.drop());

  it('finds a clean log equal to the live read models (exit 0), leaving the live tables as they were and no schema behind', async () => {
    const { events, before } = await using(async (db) => ({
      events: await projectedHistory(db),
      before: await liveChecksums(db),
    }));
    const run = await replay(['--batch-size', '4'], database.env);
    expect(run.stdout).toEqual([expect.stringMatching(SUMMARY(events, 0, 0))]);
    expect(run.code).toBe(0);
    await using(async (db) => {
      expect(await liveChecksums(db)).toEqual(before);
      expect(await replaySchemas(db)).toEqual([]);
    });
  });

  it('compares at the same position of the log when the projector lags behind inline projections', async () => {
    const { events, lagging, before } = await using(async (db) => {
      let events = await projectedHistory(db);
      // The projector stops here. Afterwards: a ledger's first events projected inline, then three
      // appended without a projection (as an older build's command or a failed inline write would
      // leave them), then more inline ones that carry the row over those; and a payout nobody projected.
      const store = new PostgresEventStore(db);
      const flow = fundsFlowEvents('acc_lag');
      await appendLedger(store, 'acc_lag', flow.slice(0, 4));
      await appendLedger(store, 'acc_lag', flow.slice(4, 7), { inline: false });
      await appendLedger(store, 'acc_lag', flow.slice(7));
      const payout = await store.append(createPayout('po_3', 'ref-3', 8));
      await store.close();
      const lagging = flow.length + payout.events.length;
      events += lagging;
      // The live tables really are behind for the payout and its ledger.
      const po3 = await db.query(`SELECT 1 FROM payout_list WHERE payout_id = 'po_3'`);
      const acc1 = await db.query<{ v: number }>(
        `SELECT ledger_version AS v FROM payout_balances WHERE account_id = 'acc_1'`,
      );
      expect([po3.rows.length, acc1.rows[0]!.v]).toEqual([0, 8]);
      return { events, lagging, before: await liveChecksums(db) };
    });
    const run = await replay([], database.env);
    expect(run.stdout).toEqual([expect.stringMatching(SUMMARY(events, 0, lagging))]);
    expect(run.code).toBe(0);
    expect(await using(liveChecksums)).toEqual(before);
  });

  it('reports a balance changed in SQL, a deleted payout row and an extra balance transaction, one line each (exit 1)', async () => {
    const { events, available } = await using(async (db) => {
      const events = await projectedHistory(db);
      const { rows } = await db.query<{ available: string }>(
        `SELECT available::text AS available FROM payout_balances WHERE account_id = 'acc_1'`,
      );
      // What someone with write access to the live tables would do.
      await db.query(`UPDATE payout_balances SET available = available + 1 WHERE account_id = 'acc_1'`);
      await db.query(`DELETE FROM payout_list WHERE payout_id = 'po_2'`);
      await db.query(
        `INSERT INTO balance_transactions
           SELECT (jsonb_populate_record(t, '{"id": "txn_ffffffffffffffffffffffff"}')).*
             FROM balance_transactions t WHERE t.account_id = 'acc_flow' ORDER BY t.id LIMIT 1`,
      );
      return { events, available: rows[0]!.available };
    });
    const before = await using(liveChecksums);
    const run = await replay([], database.env);
    expect(run.stdout).toEqual([
      'difference payout_list key=["po_2"] missing: the replay has this row, the live table does not',
      `difference payout_balances key=["acc_1","sandbox","USD"] column=available live="${new Big(available).plus(1).toFixed(2)}" replayed="${available}"`,
      'difference balance_transactions key=["txn_ffffffffffffffffffffffff"] extra: the live table has this row, the replay does not',
      expect.stringMatching(SUMMARY(events, 3, 0)),
    ]);
    expect(run.code).toBe(1);
    expect(await using(liveChecksums)).toEqual(before);
  });

  it('replays a log written by the older version: schema-1 credits read through the upcaster, 0 differences', async () => {
    const credit = (amount: string, reference: string, schemaVersion: number, reason?: string) => ({
      type: 'FundsCredited',
      schemaVersion,
      // Schema 1 had no reason: stored exactly as the older build wrote it.
      data: {
        accountId: 'acc_old',
        environment: 'sandbox',
        amount,
        reference,
        ...(reason ? { reason } : {}),
        at: AT,
      },
    });
    const reserved: LedgerEvent = {
      type: 'PayoutFundsReserved',
      data: { payoutId: 'po_old', customerKey: 'k', amount: '30.00', fee: '0.50', total: '30.50', at: AT },
    };
    const events = await using(async (db) => {
      const store = new PostgresEventStore(db);
      const stream = { streamId: 'ledger-acc_old-sandbox', streamType: 'ledger' };
      await store.append([{ ...stream, expectedVersion: 0, events: [credit('100.00', 'wire-1', 1)] }]);
      await store.append([{ ...stream, expectedVersion: 1, events: [credit('25.25', 'wire-2', 1)] }]);
      await store.append([
        {
          ...stream,
          expectedVersion: 2,
          events: [
            {
              type: reserved.type,
              schemaVersion: LEDGER_EVENT_SCHEMA_VERSIONS[reserved.type],
              data: reserved.data,
            },
            credit('10.00', 'wire-3', 2, 'goodwill'),
          ],
        },
      ]);
      await projectEverything(store); // the live projector, as it ran
      await store.close();
      return 4;
    });
    const run = await replay(['--keep'], database.env);
    expect(run.stdout).toEqual([
      expect.stringMatching(
        /^info kept: replayed read models in schema audit_replay_\d{14}_[0-9a-f]{4}, the live copy in audit_replay_\d{14}_[0-9a-f]{4}_live$/,
      ),
      expect.stringMatching(SUMMARY(events, 0, 0)),
    ]);
    expect(run.code).toBe(0);
    const kept = /schema (\S+),/.exec(run.stdout[0]!)![1]!;
    await using(async (db) => {
      expect(await replaySchemas(db)).toEqual([kept, `${kept}_live`]);
      const balance = await db.query(
        `SELECT ledger_version, operator_credits::text, available::text, customer_payout_holds::text
           FROM "${kept}".payout_balances WHERE account_id = 'acc_old'`,
      );
      expect(balance.rows).toEqual([
        {
          ledger_version: 4,
          operator_credits: '135.25',
          available: '104.75',
          customer_payout_holds: '30.50',
        },
      ]);
      const rows = await db.query(
        `SELECT ledger_version, type, amount::text, description, running_available::text
           FROM "${kept}".balance_transactions WHERE account_id = 'acc_old' AND type = 'adjustment' ORDER BY ledger_version`,
      );
      expect(rows.rows).toEqual([
        {
          ledger_version: 1,
          type: 'adjustment',
          amount: '100.00',
          description: REASON_NOT_RECORDED,
          running_available: '100.00',
        },
        {
          ledger_version: 2,
          type: 'adjustment',
          amount: '25.25',
          description: REASON_NOT_RECORDED,
          running_available: '125.25',
        },
        {
          ledger_version: 4,
          type: 'adjustment',
          amount: '10.00',
          description: 'goodwill',
          running_available: '104.75',
        },
      ]);
      await db.query(`DROP SCHEMA "${kept}", "${kept}_live" CASCADE`);
    });
  });

  it("names a scratch schema left by a run stopped hard, and leaves it alone (it may be another replay's)", async () => {
    const left = 'audit_replay_20260301120000_0a1b';
    const events = await using(async (db) => {
      const events = await projectedHistory(db);
      await db.query(`CREATE SCHEMA ${left}`);
      return events;
    });
    const run = await replay([], database.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toEqual([expect.stringMatching(SUMMARY(events, 0, 0))]);
    expect(run.stderr).toEqual([
      `audit replay: schema ${left} is already there, left by a run that was stopped hard or another replay's still running; once none runs, drop it: DROP SCHEMA "${left}" CASCADE`,
      // Where the time went, the whole run's events/s beside the rebuild's in the summary.
      expect.stringMatching(
        /^replay: pinning [0-9.]+ s, copying the live tables [0-9.]+ s and rebuilding [0-9.]+ s \(side by side on a server\), comparing [0-9.]+ s; the whole run [0-9.]+ s \(\d+ events\/s\)$/,
      ),
    ]);
    expect(await using(replaySchemas)).toEqual([left]);
  });

  it('refuses bad arguments with exit 2 before it opens the database', async () => {
    const refusals: [string[], RegExp][] = [
      [['--batch-size', '0'], /--batch-size must be an integer from 1 to 50000, not 0/],
      [['--batch-size=50001'], /--batch-size must be an integer from 1 to 50000, not 50001/],
      [['--batch-size', '1e3'], /--batch-size must be an integer/],
      [['--batch-size'], /--batch-size needs a value/],
      [['--fast'], /unknown argument --fast/],
      [['--keep=yes'], /--keep takes no value/],
      [['--keep', '--keep'], /--keep given twice/],
    ];
    for (const [args, message] of refusals) {
      const run = await replay(args, { DATA_DIR: '/nonexistent/audit' });
      expect({ args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        args,
        code: 2,
        stdout: [],
        stderr: [expect.stringMatching(message)],
      });
    }
    const nowhere = await replay([], { DATA_DIR: '/nonexistent/audit' });
    expect(nowhere).toMatchObject({ code: 2, stderr: [expect.stringMatching(/no embedded database/)] });
  });
});

const AT = '2026-03-01T12:00:00.000Z';
