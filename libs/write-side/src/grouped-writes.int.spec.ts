import type { RowStatement, SqlClient } from '@payouts/database';
import { TestDatabase, testBackends } from '@payouts/testing';
import { GroupedWrites } from './grouped-writes';

const answers: RowStatement['answers'] = {
  rowKey: (row) => String(row['v']),
  paramsKey: (params) => String(params[0]),
};
const INSERT: RowStatement = {
  sql: `INSERT INTO grouped_writes_test (v) SELECT r.v FROM unnest($1::text[]) AS r(v) RETURNING v, xid::text AS xid`,
  answers,
};
// Refuses to be written beside another row, as the database does to one side of a deadlock:
// alone it succeeds, in a group it aborts the group.
const INSERT_ALONE_ONLY: RowStatement = {
  sql: `INSERT INTO grouped_writes_test (v) SELECT only_row(r.v, cardinality($1::text[]))
    FROM unnest($1::text[]) AS r(v) RETURNING v, xid::text AS xid`,
  answers,
};
// Another statement, so that a group holding both is a transaction of two statements.
const INSERT_UPPER: RowStatement = {
  sql: `INSERT INTO grouped_writes_test (v) SELECT upper(r.v) FROM unnest($1::text[]) AS r(v)
    RETURNING lower(v) AS v, xid::text AS xid`,
  answers,
};

describe.each(testBackends())('grouped writes on $name', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await backend.open();
    await database.db.exec(`
      CREATE TABLE grouped_writes_test (
        v text PRIMARY KEY CHECK (v <> 'refused'),
        xid xid8 NOT NULL DEFAULT pg_current_xact_id()
      );
      CREATE FUNCTION only_row(v text, rows integer) RETURNS text LANGUAGE plpgsql AS $$
      BEGIN
        IF rows > 1 THEN
          RAISE EXCEPTION 'staged deadlock' USING ERRCODE = '40P01';
        END IF;
        RETURN v;
      END;
      $$;`);
  });
  afterAll(() => database.drop());

  const rowsOf = async (values: string[]) =>
    (
      await database.db.query<{ v: string }>(
        'SELECT v FROM grouped_writes_test WHERE v = ANY($1::text[]) ORDER BY v',
        [values],
      )
    ).rows.map((row) => row.v);

  it('commits the writes of concurrent callers in one transaction, each answered with its own rows', async () => {
    const writes = new GroupedWrites(database.db);
    const values = ['a1', 'a2', 'a3', 'a4'];
    const results = await Promise.all(
      values.map((v) => writes.writeRow<{ v: string; xid: string }>(INSERT, [v])),
    );
    expect(results.map((rows) => rows.map((row) => row.v))).toEqual(values.map((v) => [v]));
    expect(new Set(results.map((rows) => rows[0]!.xid)).size).toBe(1);
  });

  it('writes a group of one statement in autocommit, and a group of two in one transaction', async () => {
    const transactions: string[] = [];
    const db = database.db;
    const recording: SqlClient = {
      kind: db.kind,
      reads: db.reads,
      query: (sql, params) => db.query(sql, params),
      queryPrepared: (sql, params) => db.queryPrepared(sql, params),
      transaction: (work) => {
        transactions.push('transaction');
        return db.transaction(work);
      },
      exec: (sql) => db.exec(sql),
      close: () => db.close(),
    };
    const writes = new GroupedWrites(recording);
    const xidsOf = (rows: { xid: string }[][]) => new Set(rows.map((written) => written[0]!.xid));

    const alone = await Promise.all(['f1', 'f2'].map((v) => writes.writeRow<{ xid: string }>(INSERT, [v])));
    expect(xidsOf(alone).size).toBe(1);
    expect(transactions).toEqual([]);

    const mixed = await Promise.all(
      [INSERT, INSERT_UPPER, INSERT].map((statement, i) =>
        writes.writeRow<{ xid: string }>(statement, [`g${i}`]),
      ),
    );
    expect(xidsOf(mixed).size).toBe(1);
    expect(transactions).toEqual(['transaction']);
    expect((await rowsOf(['f1', 'f2', 'g0', 'G1', 'g2'])).sort()).toEqual(['G1', 'f1', 'f2', 'g0', 'g2']);
  });

  it('answers a write only once its group committed: another connection sees it at once', async () => {
    const writes = new GroupedWrites(database.db);
    const seen = await Promise.all(
      ['b1', 'b2', 'b3'].map(async (v) => {
        await writes.writeRow(INSERT, [v]);
        return rowsOf([v]);
      }),
    );
    expect(seen).toEqual([['b1'], ['b2'], ['b3']]);
  });

  it('runs each write alone again when the database aborted the group, so every one commits', async () => {
    const writes = new GroupedWrites(database.db);
    const values = ['c1', 'c2', 'c3'];
    const results = await Promise.all(values.map((v) => writes.writeRow(INSERT_ALONE_ONLY, [v])));
    expect(results.map((rows) => rows.length)).toEqual([1, 1, 1]);
    expect(await rowsOf(values)).toEqual(values);
  });

  it('gives any other failure to every write of the group, and commits none of them', async () => {
    const writes = new GroupedWrites(database.db);
    const outcomes = await Promise.allSettled(
      ['d1', 'refused', 'd3'].map((v) => writes.writeRow(INSERT, [v])),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await rowsOf(['d1', 'd3'])).toEqual([]);
  });

  it('never puts two rows with one key in a group: the second is written after the first committed', async () => {
    const writes = new GroupedWrites(database.db);
    const upsert: RowStatement = {
      sql: `INSERT INTO grouped_writes_test (v) SELECT r.v FROM unnest($1::text[]) AS r(v)
        ON CONFLICT (v) DO UPDATE SET xid = pg_current_xact_id() RETURNING v, xid::text AS xid`,
      answers,
    };
    // One statement would refuse to touch a row twice ("cannot affect row a second time").
    const results = await Promise.all(
      ['e1', 'e1', 'e2'].map((v) => writes.writeRow<{ v: string; xid: string }>(upsert, [v], [v])),
    );
    expect(results.map((rows) => rows.map((row) => row.v))).toEqual([['e1'], ['e1'], ['e2']]);
    expect(results[0]![0]!.xid).not.toBe(results[1]![0]!.xid);
  });
});
