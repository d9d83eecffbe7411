import { ledgerStreamId } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { appendLedger, fundsFlowEvents, testBackends, TestDatabase } from '@payouts/testing';
import { projectReadModels } from './read-model.projection';

/**
 * The projector beside the writers on the PostgreSQL server: a balance row the command's inline
 * projection already brought up to date must not be locked by the projector, or every create on
 * that ledger waits for the projector's batch (and a group commit locking ledgers in another
 * order deadlocks with it).
 */
describe.each(testBackends().filter((backend) => backend.name === 'postgres'))(
  'the projector beside the writers on $name',
  (backend) => {
    let database: TestDatabase;
    let store: PostgresEventStore;

    beforeAll(async () => {
      database = await backend.open();
      store = new PostgresEventStore(database.db);
    });
    afterAll(async () => {
      await store.close?.();
      await database.drop();
    });

    it('passes over a ledger already projected without waiting on a writer that holds its balance row', async () => {
      const account = 'acct_projected';
      for (const event of fundsFlowEvents(account)) await appendLedger(store, account, [event]);
      const { events } = await store.readStream(ledgerStreamId(account, 'sandbox'));
      const before = await database.db.query('SELECT * FROM payout_balances WHERE account_id = $1', [
        account,
      ]);

      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // A writer in flight: it holds the balance row, as a create's inline projection does.
      const writer = database.db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM payout_balances WHERE account_id = $1 FOR UPDATE', [account]);
        locked();
        await held;
      });
      await isLocked;
      try {
        await database.db.transaction(async (tx) => {
          await tx.query("SET LOCAL lock_timeout = '2s'");
          await projectReadModels(tx, store, events);
        });
      } finally {
        release();
        await writer;
      }
      const after = await database.db.query('SELECT * FROM payout_balances WHERE account_id = $1', [account]);
      expect(after.rows).toEqual(before.rows);
    });
  },
);
