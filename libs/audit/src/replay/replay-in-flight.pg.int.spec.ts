import { LEDGER_STREAM_TYPE, ledgerStreamId } from '@payouts/domain';
import { FEED_START, PostgresEventStore, StreamAppend } from '@payouts/event-store';
import { projectReadModels, READ_MODEL_TABLES } from '@payouts/read-models';
import { fundsFlowEvents, testBackends, TestDatabase, toNewEvent } from '@payouts/testing';
import { appendHistory, projectEverything } from '../testing/audit-history';
import { ReplayDifference } from './replay-differences';
import { replayReadModels } from './replay-read-models';

const ledgerAppend = (accountId: string): StreamAppend[] => [
  {
    streamId: ledgerStreamId(accountId, 'sandbox'),
    streamType: LEDGER_STREAM_TYPE,
    expectedVersion: 0,
    events: fundsFlowEvents(accountId).slice(0, 6).map(toNewEvent),
  },
];

// Concurrent transactions need a server: the embedded database runs one at a time.
describe.each(testBackends().filter((b) => b.name === 'postgres'))('replayReadModels on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeEach(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('takes every commit its snapshot saw, also one after a transaction still in flight, and none of that one', async () => {
    const logged = await appendHistory(store);
    await projectEverything(store);
    // An older transaction holds its events and inline rows uncommitted while the replay pins
    // its end; a younger one has committed by then. The younger is in the pinned log although
    // the feed's horizon (below the oldest transaction in flight) has not reached it yet.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const older = store.append(ledgerAppend('acc_older'), {
      inTransaction: async (tx, events) => {
        await projectReadModels(tx, store, events, { concurrentStreams: true });
        await tx.query('SELECT 1'); // every statement before it has run: the events are written
        entered();
        await gate;
      },
    });
    await inFlight;
    const younger = await store.append(ledgerAppend('acc_younger'), {
      inTransaction: (tx, events) => projectReadModels(tx, store, events, { concurrentStreams: true }),
    });

    const differences: ReplayDifference[] = [];
    const report = await replayReadModels(database.db, {
      batchSize: 4,
      onDifference: (difference) => differences.push(difference),
      onProgress: () => release(),
    });
    const committedLate = await older;

    const youngerEnd = younger.events[younger.events.length - 1]!;
    expect(BigInt(committedLate.events[0]!.transactionId)).toBeLessThan(BigInt(youngerEnd.transactionId));
    expect(differences).toEqual([]);
    expect(report).toMatchObject({
      events: logged + younger.events.length,
      end: { transactionId: youngerEnd.transactionId, position: youngerEnd.globalPosition },
      liveCopyEvents: younger.events.length,
      differences: 0,
    });
  });

  it('copies the live tables in short transactions, so it never holds back the server’s event feed meanwhile', async () => {
    const logged = await appendHistory(store);
    await projectEverything(store);
    const chunks: { table: string; rows: number; heldIds: string[] }[] = [];
    const heldIds = async () => {
      // The copy's sessions holding a transaction id (each holds back every feed on the server);
      // the rebuild beside it writes in short transactions of its own, one a batch.
      const { rows } = await database.db.query<{ xid: string }>(
        `SELECT backend_xid::text AS xid FROM pg_stat_activity
          WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()
            AND query LIKE 'WITH page AS%'`,
      );
      return rows.map((row) => row.xid);
    };
    const differences: ReplayDifference[] = [];
    const pending: Promise<void>[] = [];
    const report = await replayReadModels(database.db, {
      copyChunkRows: 2,
      onDifference: (difference) => differences.push(difference),
      onProgress: (phase, count, at) => {
        if (phase !== 'copy') return;
        pending.push(heldIds().then((held) => void chunks.push({ table: at, rows: count, heldIds: held })));
      },
    });
    await Promise.all(pending);
    // Tables of more than two rows were copied in several chunks, and every row was copied.
    expect(chunks.filter((chunk) => chunk.rows > 2).length).toBeGreaterThan(0);
    for (const table of READ_MODEL_TABLES) {
      const { rows } = await database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      const copied = Math.max(0, ...chunks.filter((chunk) => chunk.table === table).map((c) => c.rows));
      expect([table, copied]).toEqual([table, rows[0]!.n]);
    }
    expect(differences).toEqual([]);
    expect(report).toMatchObject({ events: logged, differences: 0 });
    // Looked at after each chunk (the next may have begun): a transaction id seen twice would be
    // one transaction held across chunks, as one transaction for the whole copy was.
    const seen = chunks.flatMap((chunk) => chunk.heldIds);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('copies the live tables beside the rebuild, after the pin', async () => {
    await appendHistory(store);
    await projectEverything(store);
    const phases: string[] = [];
    const report = await replayReadModels(database.db, {
      copyChunkRows: 1,
      batchSize: 2,
      onDifference: () => undefined,
      onProgress: (phase) => void phases.push(phase),
    });
    expect(report.differences).toBe(0);
    // Batches of the rebuild were done before the copy's last chunk.
    expect(phases.indexOf('replay')).toBeLessThan(phases.lastIndexOf('copy'));
    expect(report.copyMs).toBeGreaterThan(0);
  });

  it('stops the rebuild when the copy fails, reports the copy’s failure and drops both schemas', async () => {
    await appendHistory(store);
    await projectEverything(store);
    let dropped: Promise<unknown> | undefined;
    let replayedAfter = 0;
    const run = replayReadModels(database.db, {
      copyChunkRows: 1,
      batchSize: 2,
      onDifference: () => undefined,
      onProgress: (phase) => {
        if (phase === 'replay' && dropped) replayedAfter += 1;
        if (phase !== 'copy' || dropped) return;
        // Someone drops the live copy's schema under it: its next chunk fails.
        dropped = database.db
          .query(
            `SELECT format('DROP SCHEMA %I CASCADE', nspname) AS sql FROM pg_namespace WHERE nspname LIKE 'audit_replay%_live'`,
          )
          .then(async ({ rows }) => database.db.query((rows[0] as { sql: string }).sql));
      },
    });
    await expect(run).rejects.toThrow(/schema .* does not exist|relation .* does not exist/);
    await dropped;
    const { rows } = await database.db.query(`SELECT 1 FROM pg_namespace WHERE nspname LIKE 'audit_replay%'`);
    expect(rows).toEqual([]);
    const events = (await store.readFeed(FEED_START, 10_000)).length;
    // Stopped at its next batch, long before the end of the log.
    expect(replayedAfter).toBeLessThan(events / 2 / 2);
  });
});
