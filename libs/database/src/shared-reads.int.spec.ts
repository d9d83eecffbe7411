import { countSocketWrites, testBackends } from '@payouts/testing';
import { SqlClient } from './sql-client';

// `reads` multiplexes many callers' SELECTs over a few pipelined connections on a server. Each
// caller must still get exactly its own answer, a failing statement must fail alone, and a lost
// connection must cost only the statements that were on it.
describe.each(testBackends())('shared reads on $name', (backend) => {
  let db: SqlClient;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await backend.open({ migrated: false }));
    await db.exec(
      'CREATE TABLE read_rows (n integer PRIMARY KEY, label text NOT NULL); ' +
        "INSERT INTO read_rows SELECT n, 'row ' || n FROM generate_series(1, 500) AS n",
    );
  });

  afterAll(() => drop());

  const label = (n: number) =>
    db.reads.queryPrepared<{ label: string }>('SELECT label FROM read_rows WHERE n = $1', [n]);

  it('answers each of many concurrent callers with its own rows', async () => {
    const ns = Array.from({ length: 500 }, (_, i) => i + 1);
    const answers = await Promise.all(ns.map(label));
    expect(answers.map((a) => a.rows[0]?.label)).toEqual(ns.map((n) => `row ${n}`));
  });

  it('fails only the statement that failed, not those issued beside it', async () => {
    const [before, failed, after] = await Promise.allSettled([
      label(1),
      db.reads.query('SELECT 1 / (n - n) FROM read_rows WHERE n = 2'),
      label(3),
    ]);
    expect(before).toMatchObject({ status: 'fulfilled', value: { rows: [{ label: 'row 1' }] } });
    expect(failed).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(after).toMatchObject({ status: 'fulfilled', value: { rows: [{ label: 'row 3' }] } });
  });

  it('sees what committed before the statement was issued (read-your-writes across connections)', async () => {
    await db.transaction((tx) => tx.query("UPDATE read_rows SET label = 'changed' WHERE n = 4"));
    expect((await label(4)).rows[0]?.label).toBe('changed');
  });

  if (backend.name === 'postgres') {
    it('writes the statements of one turn, each issued in a callback of its own, to the socket at once', async () => {
      await Promise.all([label(13), label(14)]); // both shared connections are open
      // Callbacks of one check phase, like the I/O callbacks of the requests read in one turn.
      const ns = [15, 16, 17, 18, 19];
      const { result: answers, writes } = await countSocketWrites(() =>
        Promise.all(
          ns.map(
            (n) =>
              new Promise<Awaited<ReturnType<typeof label>>>((resolve) =>
                setImmediate(() => resolve(label(n))),
              ),
          ),
        ),
      );
      expect(answers.map((answer) => answer.rows[0]?.label)).toEqual(ns.map((n) => `row ${n}`));
      expect(writes).toBe(1);
    });

    it('opens a new connection after the server ended one', async () => {
      await Promise.all([label(5), label(6)]); // both shared connections are open
      const { rows: ended } = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'payouts'
            AND state = 'idle'`,
      );
      expect(ended.length).toBeGreaterThanOrEqual(2);
      const pids = ended.map((row) => row.pid);
      await db.query('SELECT pg_terminate_backend(pid) FROM unnest($1::integer[]) AS pid', [pids]);
      // pg_terminate_backend only signals: a statement sent before a backend has gone would still
      // be answered. Wait until every one of them has exited, so each old connection is dead.
      const exitedBy = Date.now() + 5_000;
      while (Date.now() < exitedBy) {
        const { rows } = await db.query<{ alive: number }>(
          'SELECT count(*)::int AS alive FROM pg_stat_activity WHERE pid = ANY($1::integer[])',
          [pids],
        );
        if (rows[0]!.alive === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // A statement that lands on a connection the server ended fails; its slot then opens a new
      // one. Once both slots are replaced, a batch spread over them all succeeds, and so does the next.
      const deadline = Date.now() + 5_000;
      const batch = () => Promise.allSettled([label(7), label(8), label(9), label(10)]);
      let answers = await batch();
      while (answers.some((answer) => answer.status === 'rejected') && Date.now() < deadline) {
        answers = await batch();
      }
      expect(
        answers.map((answer) => (answer.status === 'fulfilled' ? answer.value.rows[0]?.label : 'failed')),
      ).toEqual(['row 7', 'row 8', 'row 9', 'row 10']);
      expect((await Promise.all([label(11), label(12)])).map((r) => r.rows[0]?.label)).toEqual([
        'row 11',
        'row 12',
      ]);
    });
  }
});
