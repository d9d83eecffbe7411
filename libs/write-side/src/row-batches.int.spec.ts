import type { RowStatement, SqlQueryable } from '@payouts/database';
import { countSocketWrites, TestDatabase, testBackends } from '@payouts/testing';
import { batchingRows, writeRow } from './row-batches';

const UPSERT: RowStatement = {
  sql: `INSERT INTO row_statements_test (k, n, note)
    SELECT r.k, r.n::integer, r.note FROM unnest($1::text[], $2::text[], $3::text[]) AS r(k, n, note)
    ON CONFLICT (k) DO UPDATE SET n = row_statements_test.n + EXCLUDED.n
    RETURNING k, n, note`,
  answers: { rowKey: (row) => String(row['k']), paramsKey: (params) => String(params[0]) },
};

const INSERT_SILENTLY: RowStatement = {
  sql: `INSERT INTO row_statements_test (k, n, note)
    SELECT r.k, r.n::integer, NULL FROM unnest($1::text[], $2::text[]) AS r(k, n)`,
};

// A JSON column (jsonColumns) beside a text one, each row's JSON returned as stored and as its type.
const JSON_ROWS: RowStatement = {
  sql: `SELECT r.k, (r.doc -> 0)::text AS doc, jsonb_typeof(r.doc -> 0) AS type
    FROM ROWS FROM (unnest($1::text[]), jsonb_array_elements($2::jsonb)) AS r(k, doc)`,
  answers: { rowKey: (row) => String(row['k']), paramsKey: (params) => String(params[0]) },
  jsonColumns: [1],
};

describe.each(testBackends())('row statements on $name', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await backend.open();
    await database.db.exec(`CREATE TABLE row_statements_test (
      k text PRIMARY KEY, n integer NOT NULL CHECK (n >= 0), note text)`);
  });
  afterAll(() => database.drop());

  /** The transaction's queryable, counting the statements sent through it. */
  const counting = (tx: SqlQueryable) => {
    const sent: string[] = [];
    const queryable: SqlQueryable = {
      query: (sql, params) => (sent.push(sql), tx.query(sql, params)),
      queryPrepared: (sql, params) => (sent.push(sql), tx.queryPrepared(sql, params)),
    };
    return { queryable, sent };
  };

  it('writes a row alone as one statement, with nulls, and answers the rows it returned', async () => {
    const rows = await writeRow<{ k: string; n: number; note: string | null }>(database.db, UPSERT, [
      'alone',
      4,
      null,
    ]);
    expect(rows).toEqual([{ k: 'alone', n: 4, note: null }]);
    expect(await writeRow(database.db, INSERT_SILENTLY, ['alone-silent', 1])).toEqual([]);
  });

  it('sends the rows written in one turn through a batching transaction as one statement, each answered its own', async () => {
    const answers = await database.db.transaction(async (tx) => {
      const { queryable, sent } = counting(tx);
      const batched = batchingRows(queryable);
      const written = await Promise.all(
        ['b1', 'b2', 'b3', 'b4'].map(async (k, i) => {
          await Promise.resolve(); // writers reach it a few promise jobs apart, as a group's members do
          return writeRow<{ k: string; n: number; note: string }>(batched, UPSERT, [k, i, `note ${k}`]);
        }),
      );
      await Promise.all(['s1', 's2'].map((k) => writeRow(batched, INSERT_SILENTLY, [k, 7])));
      return { written, sent };
    });
    expect(answers.sent).toHaveLength(2);
    expect(answers.written).toEqual(['b1', 'b2', 'b3', 'b4'].map((k, i) => [{ k, n: i, note: `note ${k}` }]));
    const { rows } = await database.db.query<{ k: string }>(
      "SELECT k FROM row_statements_test WHERE k LIKE 'b%' OR k LIKE 's%' ORDER BY k",
    );
    expect(rows.map((row) => row.k)).toEqual(['b1', 'b2', 'b3', 'b4', 's1', 's2']);
  });

  it('sends a JSON column as one JSON array, each row its own value, a missing one SQL NULL apart from JSON null', async () => {
    const docs: [string, string | null][] = [
      ['quotes', JSON.stringify({ say: 'a "quoted" \\ back\\slash', list: ['x', "it's"] })],
      ['unicode', JSON.stringify('é € 😀 \n\t')],
      ['json-null', 'null'],
      ['missing', null],
      ['number', '12.50'],
    ];
    const answers = await database.db.transaction(async (tx) => {
      const batched = batchingRows(tx);
      return Promise.all(
        docs.map((params) =>
          writeRow<{ doc: string | null; type: string | null }>(batched, JSON_ROWS, params),
        ),
      );
    });
    expect(answers.map(([row]) => row && [row.doc === null ? null : JSON.parse(row.doc), row.type])).toEqual([
      [{ say: 'a "quoted" \\ back\\slash', list: ['x', "it's"] }, 'object'],
      ['é € 😀 \n\t', 'string'],
      [null, 'null'],
      [null, null],
      [12.5, 'number'],
    ]);
    const [alone] = await writeRow<{ doc: string }>(database.db, JSON_ROWS, ['alone', '{"a":[1,"two"]}']);
    expect(JSON.parse(alone!.doc)).toEqual({ a: [1, 'two'] });
  });

  it('fails every writer of a batch whose statement failed, and the transaction writes nothing', async () => {
    const outcome = database.db.transaction(async (tx) => {
      const batched = batchingRows(tx);
      const results = await Promise.allSettled([
        writeRow(batched, UPSERT, ['f1', 1, null]),
        writeRow(batched, UPSERT, ['f2', -1, null]), // the CHECK refuses this row
      ]);
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
      throw (results[1] as PromiseRejectedResult).reason;
    });
    await expect(outcome).rejects.toThrow(/check constraint/);
    const { rows } = await database.db.query("SELECT k FROM row_statements_test WHERE k LIKE 'f%'");
    expect(rows).toEqual([]);
  });
});

// PGlite runs in this process, so only a server connection has a socket whose writes count.
for (const backend of testBackends().filter((candidate) => candidate.name === 'postgres')) {
  describe(`socket writes of a batching transaction on ${backend.name}`, () => {
    let database: TestDatabase;

    beforeAll(async () => {
      database = await backend.open({ migrated: false });
      await database.db.query('SELECT 1'); // the connection's own start-up writes come before the count
    });
    afterAll(() => database.drop());

    const ROW: RowStatement = {
      sql: 'SELECT r.k FROM unnest($1::text[]) AS r(k)',
    };

    it("writes a transaction's BEGIN, its statement and its row batches to the socket at once", async () => {
      // Every socket write of this process while the transaction runs (it is the only one running).
      const { writes } = await countSocketWrites(() =>
        database.db.transaction(async (tx) => {
          const batched = batchingRows(tx);
          await Promise.all([
            tx.query('SELECT 1'),
            writeRow(batched, ROW, ['w1']),
            writeRow(batched, ROW, ['w2']),
          ]);
        }),
      );
      // BEGIN, the SELECT and the batch in one write; COMMIT, once every answer was seen, in another.
      expect(writes).toBe(2);
    });
  });
}
