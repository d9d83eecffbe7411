import { countSocketWrites, TestDatabase, testBackends } from '@payouts/testing';
import { BatchedLookUps } from './batched-look-ups';
import { RowStatement } from './row-statements';
import type { SqlQueryable } from './sql-client';

const LABELS: RowStatement = {
  sql: `SELECT t.n, l.label FROM unnest($1::text[]) AS t(n) JOIN look_up_labels l ON l.n = t.n::integer`,
  answers: { rowKey: (row) => String(row['n']), paramsKey: (params) => String(params[0]) },
};

describe.each(testBackends())('batched look-ups on $name', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await backend.open({ migrated: false });
    await database.db.exec(
      'CREATE TABLE look_up_labels (n integer PRIMARY KEY, label text NOT NULL); ' +
        "INSERT INTO look_up_labels SELECT n, 'label ' || n FROM generate_series(1, 50) AS n",
    );
  });
  afterAll(() => database.drop());

  /** The database's reads, counting the statements sent and the look-ups in each. */
  const counting = () => {
    const statements: number[] = [];
    const queryable: SqlQueryable = {
      query: (sql, params) => database.db.reads.query(sql, params),
      queryPrepared: (sql, params) => {
        statements.push((params?.[0] as unknown[]).length);
        return database.db.reads.queryPrepared(sql, params);
      },
    };
    return { queryable, statements };
  };

  const labelsOf = (rows: { label: string }[][]) => rows.map((found) => found.map((row) => row.label));

  it('sends the look-ups of one turn, each in its own I/O callback, as one statement, each answered its own', async () => {
    const { queryable, statements } = counting();
    const lookUps = new BatchedLookUps<{ label: string }>(queryable, LABELS);
    // Like requests: each look-up starts in a callback of its own, in the same turn of the loop.
    const found = await Promise.all(
      [3, 1, 4, 99, 5].map(
        (n) =>
          new Promise<{ label: string }[]>((resolve) => setImmediate(() => resolve(lookUps.lookUp([n])))),
      ),
    );
    expect(labelsOf(found)).toEqual([['label 3'], ['label 1'], ['label 4'], [], ['label 5']]);
    expect(statements).toEqual([5]);
  });

  it('looks up the same parameters once for every caller that asked', async () => {
    const { queryable, statements } = counting();
    const lookUps = new BatchedLookUps<{ label: string }>(queryable, LABELS);
    const found = await Promise.all([7, 7, 8, 7].map((n) => lookUps.lookUp([n])));
    expect(labelsOf(found)).toEqual([['label 7'], ['label 7'], ['label 8'], ['label 7']]);
    expect(statements).toEqual([2]);
  });

  it('sends look-ups of later turns in statements of their own, which read what was committed meanwhile', async () => {
    const { queryable, statements } = counting();
    const lookUps = new BatchedLookUps<{ label: string }>(queryable, LABELS);
    expect(labelsOf([await lookUps.lookUp([10])])).toEqual([['label 10']]);
    await database.db.query("UPDATE look_up_labels SET label = 'changed' WHERE n = 10");
    expect(labelsOf([await lookUps.lookUp([10])])).toEqual([['changed']]);
    expect(statements).toEqual([1, 1]);
  });

  it('fails every look-up of a statement that failed, and the next turn looks up afresh', async () => {
    const lookUps = new BatchedLookUps<{ label: string }>(database.db.reads, LABELS);
    const outcomes = await Promise.allSettled([lookUps.lookUp(['11']), lookUps.lookUp(['not a number'])]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(labelsOf([await lookUps.lookUp(['11'])])).toEqual([['label 11']]);
  });

  it('refuses a statement that cannot say which row answers which look-up', () => {
    expect(() => new BatchedLookUps(database.db.reads, { sql: LABELS.sql })).toThrow(/which row answers/);
  });

  if (backend.name === 'postgres') {
    it("writes a turn's statement at that turn's end, not a turn later", async () => {
      // Both shared connections open first (a turn takes one), so nothing waits for a connection.
      await database.db.reads.query('SELECT 1');
      await database.db.reads.query('SELECT 1');
      const lookUps = new BatchedLookUps<{ label: string }>(database.db.reads, LABELS);
      const events: string[] = [];
      const { result: found } = await countSocketWrites(
        () =>
          new Promise<{ label: string }[]>((resolve) =>
            setImmediate(() => {
              // As a request's I/O callback: its look-up, then work queued behind the look-up's flush.
              resolve(lookUps.lookUp(['7']));
              setImmediate(() => events.push('work queued behind the flush'));
            }),
          ),
        () => events.push('write'),
      );
      expect(labelsOf([found])).toEqual([['label 7']]);
      expect(events.slice(0, 2)).toEqual(['write', 'work queued behind the flush']);
    });
  }
});
