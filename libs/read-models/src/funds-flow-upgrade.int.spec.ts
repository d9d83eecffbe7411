import { loadMigrations, migrate } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { appendLedger, fundsFlowEvents, testBackends } from '@payouts/testing';
import { setCheckpoint } from '../../event-store/src/testing/subscription-checkpoints';
import { projectReadModels, READ_MODEL_SUBSCRIPTION_ID } from './read-model.projection';

/**
 * Migration 0021 on a database that already has ledgers: their balance rows start over and the
 * projector replays the log, so every event already stored gets its balance transactions.
 */
describe.each(testBackends())('migration 0021 over existing ledgers on $name', (backend) => {
  it('lets the projector rebuild the balance and write the transactions of events stored before it', async () => {
    const { db, drop } = await backend.open({ migrated: false });
    const store = new PostgresEventStore(db);
    try {
      const all = loadMigrations();
      await migrate(
        db,
        all.filter((m) => m.name < '0021'),
      );
      const account = 'acct_upgraded';
      const events = fundsFlowEvents(account).filter((e) =>
        ['LedgerLimitsSet', 'FundsCredited'].includes(e.type),
      );
      await appendLedger(store, account, events, { inline: false });
      // The balance as the code before 0021 left it, and the projector's checkpoint past the events.
      await db.query(
        `INSERT INTO payout_balances (account_id, environment, ledger_version, currency, funds_in, available,
           customer_payout_holds, customer_payouts_settled, merchant_settlement_holds, retained_target, updated_at)
         VALUES ($1, 'sandbox', 2, 'USD', 100, 100, 0, 0, 0, 0, now())`,
        [account],
      );
      const { head } = await store.feedSnapshot();
      await setCheckpoint(db, READ_MODEL_SUBSCRIPTION_ID, head!);

      expect((await migrate(db, all)).applied).toEqual(
        all.filter((m) => m.name >= '0021').map((m) => m.name),
      );
      const subscription = store.subscribe({
        subscriptionId: READ_MODEL_SUBSCRIPTION_ID,
        handle: (batch, tx) => projectReadModels(tx, store, batch),
        pollIntervalMs: 10,
      });
      await subscription.caughtUp();
      await subscription.stop();

      const balance = await db.query<Record<string, string>>(
        `SELECT ledger_version::text, funds_in::text, operator_credits::text, available::text
           FROM payout_balances WHERE account_id = $1`,
        [account],
      );
      expect(balance.rows).toEqual([
        { ledger_version: '2', funds_in: '100.00', operator_credits: '100.00', available: '100.00' },
      ]);
      const rows = await db.query<{ type: string; description: string }>(
        'SELECT type, description FROM balance_transactions WHERE account_id = $1',
        [account],
      );
      expect(rows.rows).toEqual([{ type: 'adjustment', description: 'opening credit' }]);
    } finally {
      await store.close?.();
      await drop();
    }
  });
});
