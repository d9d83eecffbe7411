import { PostgresEventStore } from '@payouts/event-store';
import { READ_MODEL_TABLES } from '@payouts/read-models';
import { testBackends, TestDatabase } from '@payouts/testing';
import { FEED_ORIGIN } from '../feed/audit-feed';
import { appendHistory, LEDGER } from '../testing/audit-history';
import { PinnedEvent, pinnedPage } from './pinned-feed';
import { ProjectionPipeline } from './projection-batches';

/** The read models of a scratch schema, every row in key order, for comparing two rebuilds. */
async function rowsOf(database: TestDatabase, schema: string): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of READ_MODEL_TABLES) {
    tables[table] = (await database.db.query(`SELECT * FROM "${schema}".${table} ORDER BY 1`)).rows;
  }
  return tables;
}

describe.each(testBackends())('ProjectionPipeline on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let log: PinnedEvent[];

  beforeEach(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    await appendHistory(store);
    log = await pinnedPage(store, await store.feedSnapshot(), FEED_ORIGIN, 1_000);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  const scratchSchema = async (name: string) => {
    await database.db.query(`CREATE SCHEMA ${name}`);
    for (const table of READ_MODEL_TABLES) {
      await database.db.query(`CREATE TABLE ${name}.${table} (LIKE public.${table} INCLUDING ALL)`);
    }
    return name;
  };
  const batchesOf = (events: readonly PinnedEvent[], size: number) =>
    Array.from({ length: Math.ceil(events.length / size) }, (_, i) => events.slice(i * size, (i + 1) * size));

  /** One connection into s_alone, two shares into s_piped: the same batches should write the same rows. */
  const aloneAndPiped = async () => {
    const [alone, piped] = [await scratchSchema('s_alone'), await scratchSchema('s_piped')];
    const pipeline = (schema: string, connections: number) =>
      new ProjectionPipeline(database.db, { schema, concurrentStreams: true, connections });
    return { alone, piped, one: pipeline(alone, 1), two: pipeline(piped, 2) };
  };

  it('two shares a batch apart write what one connection writes batch by batch', async () => {
    const { alone, piped, one, two } = await aloneAndPiped();
    for (const batch of batchesOf(log, 3)) {
      await one.push(batch);
      await two.push(batch);
    }
    await one.finish();
    await two.finish();
    const rows = await rowsOf(database, alone);
    expect(rows.balance_transactions!.length).toBeGreaterThan(0);
    expect(rows.payout_list!.length).toBeGreaterThan(0);
    expect(await rowsOf(database, piped)).toEqual(rows);
  });

  it('drains: every batch pushed is written when it returns, and batches pushed after it follow', async () => {
    const { alone, piped, one, two } = await aloneAndPiped();
    const batches = batchesOf(log, 3);
    for (const [i, batch] of batches.entries()) {
      await one.push(batch);
      await two.push(batch);
      if (i % 3 !== 1) continue;
      await one.drain();
      await two.drain();
      // Nothing of these batches is still being written on either share.
      expect(await rowsOf(database, piped)).toEqual(await rowsOf(database, alone));
    }
    await one.finish();
    await two.finish();
    expect(batches.length).toBeGreaterThan(4);
    expect(await rowsOf(database, piped)).toEqual(await rowsOf(database, alone));
  });

  it('throws the first failure of a share, runs nothing more on it, and settles before it returns', async () => {
    const schema = await scratchSchema('s_failing');
    // A ledger event whose amount is not money: the balance projection refuses it.
    const at = log.findIndex((event) => event.streamId === LEDGER && event.streamVersion === 2);
    const broken = log.map((event, i) =>
      i === at ? { ...event, data: { ...(event.data as object), amount: 'ten dollars' } } : event,
    );
    const pipeline = new ProjectionPipeline(database.db, { schema, concurrentStreams: true, connections: 2 });
    const run = async () => {
      for (const batch of batchesOf(broken, 2)) await pipeline.push(batch);
      await pipeline.finish();
    };
    await expect(run()).rejects.toThrow(/\[big.js\] Invalid number/);
    await pipeline.settle();
    // The ledger's share stopped at the broken batch: its row is at the version before it, or absent.
    const { rows } = await database.db.query<{ v: number }>(
      `SELECT ledger_version AS v FROM s_failing.payout_balances WHERE account_id = 'acc_1'`,
    );
    expect(rows.every((row) => row.v < 2)).toBe(true);
  });
});
