import { testBackends } from '@payouts/testing';
import { TransactionEndedError } from './issued-statements';
import { SqlClient, SqlQueryable } from './sql-client';

// Work may issue several statements before awaiting any: on a server they are pipelined (written
// together, answered in one round trip). These hold what that must never change: they run in
// the order issued, inside the transaction, and nothing commits unless every one succeeded.
describe.each(testBackends())('transactions on $name', (backend) => {
  let db: SqlClient;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await backend.open({ migrated: false }));
    await db.exec('CREATE TABLE tx_rows (n integer PRIMARY KEY)');
  });

  afterAll(() => drop());

  const count = async (from: SqlQueryable = db) =>
    (await from.query<{ n: number }>('SELECT count(*)::integer AS n FROM tx_rows')).rows[0]?.n;

  beforeEach(() => db.exec('DELETE FROM tx_rows'));

  it('runs statements issued together in the order issued, inside the transaction', async () => {
    const seen = await db.transaction(async (tx) => {
      const writes = [1, 2, 3].map((n) => tx.query('INSERT INTO tx_rows (n) VALUES ($1)', [n]));
      const inside = count(tx); // issued after the inserts, before any of them answered
      await Promise.all(writes);
      return inside;
    });
    expect(seen).toBe(3);
    expect(await count()).toBe(3);
  });

  it('commits nothing when a statement the work never awaited failed', async () => {
    const duplicate = db.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_rows (n) VALUES (1)');
      void tx.query('INSERT INTO tx_rows (n) VALUES (1)'); // fails: the key exists
      void tx.query('INSERT INTO tx_rows (n) VALUES (2)'); // would run in an aborted transaction
      return 'the work itself succeeded';
    });
    // The cause, not the "current transaction is aborted" of the statement after it.
    await expect(duplicate).rejects.toMatchObject({ code: '23505' });
    expect(await count()).toBe(0);
  });

  it('commits nothing and keeps working when the work throws with statements in flight', async () => {
    const refused = new Error('decided against it');
    await expect(
      db.transaction(async (tx) => {
        void tx.query('INSERT INTO tx_rows (n) VALUES (1)');
        void tx.query('SELECT pg_sleep(0.05)');
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(await count()).toBe(0);
    // The connection went back to the pool clean: the next transaction on it commits.
    await db.transaction((tx) => tx.query('INSERT INTO tx_rows (n) VALUES (7)'));
    expect(await count()).toBe(1);
  });

  it('refuses a statement issued after the transaction ended: a branch still running writes nothing outside it', async () => {
    const refused = new Error('one branch failed');
    let straggler: Promise<unknown> | undefined;
    await expect(
      db.transaction(async (tx) => {
        const slowBranch = (async () => {
          await tx.query('SELECT pg_sleep(0.05)');
          // Reached only after the other branch failed the work and the transaction rolled back.
          straggler = tx.query('INSERT INTO tx_rows (n) VALUES (1)');
          await straggler;
        })();
        await Promise.all([slowBranch, Promise.reject(refused)]);
      }),
    ).rejects.toBe(refused);
    for (let i = 0; i < 50 && !straggler; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(straggler).rejects.toBeInstanceOf(TransactionEndedError);
    expect(await count()).toBe(0);

    let afterCommit!: SqlQueryable;
    await db.transaction(async (tx) => {
      afterCommit = tx;
      await tx.query('INSERT INTO tx_rows (n) VALUES (2)');
    });
    await expect(afterCommit.query('INSERT INTO tx_rows (n) VALUES (3)')).rejects.toBeInstanceOf(
      TransactionEndedError,
    );
    expect(await count()).toBe(1);
  });
});
