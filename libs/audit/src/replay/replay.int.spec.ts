import { PostgresEventStore } from '@payouts/event-store';
import { PROJECTION_LOOKUP_INDEXES, READ_MODEL_TABLES } from '@payouts/read-models';
import { appendLedger, fundsFlowEvents, testBackends, TestDatabase } from '@payouts/testing';
import { appendHistory, createPayout, projectEverything } from '../testing/audit-history';
import { ReplayDifference } from './replay-differences';
import { replayReadModels } from './replay-read-models';

describe.each(testBackends())('replayReadModels on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let logged: number;

  beforeEach(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    logged = await appendHistory(store);
    await projectEverything(store);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  const schemas = async () =>
    (
      await database.db.query<{ name: string }>(
        `SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'audit_replay%'`,
      )
    ).rows;

  it('compares at the moment it pinned: what commits while it runs is in neither side', async () => {
    const differences: ReplayDifference[] = [];
    let meanwhile: Promise<unknown> | undefined;
    const report = await replayReadModels(database.db, {
      batchSize: 3,
      onDifference: (difference) => differences.push(difference),
      onProgress: (phase) => {
        // After the pin, between two batches of the replay: a command's append with its inline
        // projection (live rows move), and one the projector has not reached.
        if (phase !== 'replay' || meanwhile) return;
        meanwhile = Promise.all([
          appendLedger(store, 'acc_new', fundsFlowEvents('acc_new')),
          store.append(createPayout('po_3', 'ref-3', 8)),
        ]);
      },
    });
    await meanwhile;
    expect(differences).toEqual([]);
    expect(report).toMatchObject({ events: logged, liveCopyEvents: 0, differences: 0, kept: false });
    const live = await database.db.query(`SELECT 1 FROM payout_balances WHERE account_id = 'acc_new'`);
    expect(live.rows).toHaveLength(1); // it did commit, inline, during the run
    expect(await schemas()).toEqual([]);
  });

  const indexes = async (schema: string) =>
    (
      await database.db.query<{ name: string; definition: string }>(
        `SELECT indexname AS name, replace(indexdef, $1, 'S.') AS definition FROM pg_indexes
          WHERE schemaname = $2 AND tablename = ANY($3::text[]) ORDER BY 2`,
        [`${schema}.`, schema, [...READ_MODEL_TABLES]],
      )
    ).rows;

  // The live copy is projected into only when the projector is behind the log: only then does it
  // need the keys and lookup indexes while the run writes (the comparison joins without them).
  it.each([
    ['the projector is caught up', false],
    ['the projector is behind the log', true],
  ])(
    "writes with the keys and the projections' lookup indexes only (%s), and a kept run gets every live index",
    async (_, behind) => {
      if (behind) await store.append(createPayout('po_9', 'ref-9', 8));
      const live = await indexes('public');
      const names = live.map((index) => index.name);
      for (const lookup of PROJECTION_LOOKUP_INDEXES) expect(names).toContain(lookup);
      const writing = live.filter(
        (index) => /^CREATE UNIQUE/.test(index.definition) || PROJECTION_LOOKUP_INDEXES.includes(index.name),
      );
      // The API's lists have indexes of their own, which a rebuild need not maintain row by row.
      expect(writing.length).toBeLessThan(live.length);
      const during: { replay?: unknown[]; live?: unknown[] } = {};
      const reading: Promise<void>[] = [];
      const sampled = new Set<'replay' | 'live'>();
      const sample = (side: 'replay' | 'live') => {
        if (sampled.has(side)) return;
        sampled.add(side);
        reading.push(
          (async () => {
            const [schemasNow] = await schemas();
            const replay = schemasNow!.name.replace(/_live$/, '');
            during[side] = await indexes(side === 'replay' ? replay : `${replay}_live`);
          })(),
        );
      };
      const report = await replayReadModels(database.db, {
        keep: true,
        batchSize: 4,
        onDifference: () => undefined,
        onProgress: (phase) => {
          if (phase === 'replay') sample('replay');
          // The live copy's once it is copied (on a server the copy runs beside the rebuild, table
          // by table): while it catches up, or during the rebuild when nothing is projected into
          // it, since then none is built until the end.
          if (phase === (behind ? 'live-copy' : 'replay')) sample('live');
        },
      });
      try {
        await Promise.all(reading);
        expect(report).toMatchObject({ differences: 0, liveCopyEvents: behind ? 3 : 0 });
        expect(during.replay).toEqual(writing);
        expect(during.live).toEqual(behind ? writing : []);
        expect(await indexes(report.schemas.replay)).toEqual(live);
        expect(await indexes(report.schemas.live)).toEqual(live);
        for (const schema of [report.schemas.replay, report.schemas.live]) {
          const keys = await database.db.query<{ name: string }>(
            `SELECT conname AS name FROM pg_constraint WHERE contype = 'p' AND connamespace = $1::regnamespace`,
            [schema],
          );
          expect(keys.rows).toHaveLength(READ_MODEL_TABLES.length);
        }
      } finally {
        await database.db.query(`DROP SCHEMA "${report.schemas.replay}", "${report.schemas.live}" CASCADE`);
      }
    },
  );

  it('gives the replay schema statistics while it writes, refreshed as its tables grow', async () => {
    // A table never analysed has reltuples -1: the planner guesses its size (statisticsDue).
    const seen: { batch: number; reltuples: number }[] = [];
    let batch = 0;
    let reading: Promise<void> = Promise.resolve();
    const report = await replayReadModels(database.db, {
      keep: true,
      batchSize: 2,
      onDifference: () => undefined,
      onProgress: (phase) => {
        if (phase !== 'replay') return;
        batch += 1;
        const at = batch;
        reading = reading.then(async () => {
          const [first] = await schemas();
          const replay = first!.name.replace(/_live$/, '');
          const { rows } = await database.db.query<{ n: number }>(
            `SELECT reltuples::float8 AS n FROM pg_class
              WHERE relname = 'balance_transactions' AND relnamespace = $1::regnamespace`,
            [replay],
          );
          seen.push({ batch: at, reltuples: Number(rows[0]!.n) });
        });
      },
    });
    try {
      await reading;
      expect(report.differences).toBe(0);
      expect(batch).toBeGreaterThanOrEqual(8);
      // From the second batch on, the table has statistics; they grow with it (after batches 2, 4, 8, ...).
      for (const { batch: at, reltuples } of seen.filter((s) => s.batch >= 2)) {
        expect([at, reltuples >= 0]).toEqual([at, true]);
      }
      const counts = seen.filter((s) => s.batch >= 2).map((s) => s.reltuples);
      expect(Math.max(...counts)).toBeGreaterThan(Math.min(...counts));
    } finally {
      await database.db.query(`DROP SCHEMA "${report.schemas.replay}", "${report.schemas.live}" CASCADE`);
    }
  });

  it('stops when interrupted and drops its scratch schemas', async () => {
    const interrupted = new AbortController();
    const run = replayReadModels(database.db, {
      batchSize: 2,
      signal: interrupted.signal,
      onDifference: () => undefined,
      onProgress: () => interrupted.abort(),
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(await schemas()).toEqual([]);
  });

  it('refuses a batch size outside 1 to 50,000 before it writes anything', async () => {
    for (const batchSize of [0, 50_001, 2.5]) {
      await expect(
        replayReadModels(database.db, { batchSize, onDifference: () => undefined }),
      ).rejects.toThrow(/batch size must be 1 to 50000/);
    }
    expect(await schemas()).toEqual([]);
  });

  it('compares every column: no read-model column is filled by the clock, a sequence or an expression', async () => {
    // A column written by now() or a sequence could not match a rebuild and would need excluding.
    const { rows } = await database.db.query<{ column: string; fill: string }>(
      `SELECT table_name || '.' || column_name AS column, coalesce(column_default, generation_expression, identity_generation) AS fill
         FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ANY($1::text[])
          AND (column_default IS NOT NULL OR is_generated <> 'NEVER' OR is_identity = 'YES')`,
      [[...READ_MODEL_TABLES]],
    );
    // The only defaults are zeros, for rows written before a column existed (migrations 0019, 0021).
    expect(rows.filter((row) => row.fill !== '0')).toEqual([]);
  });
});
