import { PostgresEventStore } from '@payouts/event-store';
import {
  appendLedger,
  assertMoneyInvariants,
  fundsFlowEvents,
  testBackends,
  TestDatabase,
} from '@payouts/testing';
import { projectReadModels } from './read-model.projection';

type Row = Record<string, string | null>;

/** The ways a ledger's rows get written, each compared with the rows of one inline, event-by-event run. */

describe.each(testBackends())('balance transactions on every path on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const ACCOUNT = `acct_${backend.name}_reference`;

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    // The reference: every event type, each projected inline on its own.
    for (const event of fundsFlowEvents(ACCOUNT)) await appendLedger(store, ACCOUNT, [event]);
  });
  afterAll(async () => {
    await store.close?.();
    await database.drop();
  });

  const transactions = async (accountId: string): Promise<Row[]> =>
    (
      await database.db.query<Row>(
        `SELECT id, ledger_version::text, type, currency, amount::text, fee::text, net::text, status,
                available_on::text, order_id::text, payout_id, settlement_id, description,
                running_pending::text, running_available::text, running_customer_payout_holds::text,
                running_merchant_settlement_holds::text, included_in_settlement, created_at::text
           FROM balance_transactions WHERE account_id = $1 ORDER BY currency, balance_transactions.ledger_version, type`,
        [accountId],
      )
    ).rows;

  it('writes each row once when the projector runs at the same time as the inline projection', async () => {
    const account = `acct_${backend.name}_race`;
    const projector = store.subscribe({
      subscriptionId: `race-${backend.name}`,
      handle: (batch, tx) => projectReadModels(tx, store, batch),
      batchSize: 3,
      pollIntervalMs: 1,
    });
    try {
      for (const event of fundsFlowEvents(account)) {
        // A deadlock with the projector comes back as a conflict; a command would decide again.
        for (let attempt = 1; ; attempt += 1) {
          try {
            await appendLedger(store, account, [event]);
            break;
          } catch (error) {
            if (attempt >= 5) throw error;
          }
        }
      }
      await projector.caughtUp();
    } finally {
      await projector.stop();
    }
    const raced = await transactions(account);
    const comparable = (rows: Row[]) => rows.map(({ id: _id, ...rest }) => rest);
    expect(comparable(raced)).toEqual(comparable(await transactions(ACCOUNT)));
  });

  it('heals a row that is behind: the next projected event brings every missed row with it', async () => {
    const account = `acct_${backend.name}_behind`;
    const events = fundsFlowEvents(account);
    await appendLedger(store, account, events.slice(0, 9), { inline: false });
    await appendLedger(store, account, events.slice(9));
    const healed = await transactions(account);
    const reference = await transactions(ACCOUNT);
    const comparable = (rows: Row[]) => rows.map(({ id: _id, ...rest }) => rest);
    expect(comparable(healed)).toEqual(comparable(reference));
  });

  it.each([false, true])(
    'projects a batch handed over in reverse order as it projects it in order (concurrentStreams %s)',
    async (concurrentStreams) => {
      const account = `acct_${backend.name}_reversed_${concurrentStreams}`;
      await appendLedger(store, account, fundsFlowEvents(account), { inline: false });
      const projector = store.subscribe({
        subscriptionId: `reversed-${backend.name}-${concurrentStreams}`,
        handle: (batch, tx) => projectReadModels(tx, store, [...batch].reverse(), { concurrentStreams }),
        batchSize: 1_000,
        pollIntervalMs: 1,
      });
      try {
        await projector.caughtUp();
      } finally {
        await projector.stop();
      }
      const comparable = (rows: Row[]) => rows.map(({ id: _id, ...rest }) => rest);
      expect(comparable(await transactions(account))).toEqual(comparable(await transactions(ACCOUNT)));
    },
  );

  it('takes a payout released in the same batch as its reservation from that batch (the fast path)', async () => {
    const account = `acct_${backend.name}_batch`;
    const [limits, credit, , , reserve, , release] = fundsFlowEvents(account);
    await appendLedger(store, account, [limits!, credit!]);
    await appendLedger(store, account, [reserve!, release!]);
    const rows = await transactions(account);
    expect(
      rows.map((r) => [r.type, r.amount, r.fee, r.net, r.running_available, r.running_customer_payout_holds]),
    ).toEqual([
      ['adjustment', '100.00', '0.00', '100.00', '100.00', '0.00'],
      ['payout_reserved', '-20.00', '0.50', '-20.50', '79.50', '20.50'],
      ['payout_released', '20.00', '-0.50', '20.50', '100.00', '0.00'],
    ]);
  });

  it('keeps every currency of an account on its own ledger row and rows', async () => {
    const account = `acct_${backend.name}_euro`;
    const [, credit, payment] = fundsFlowEvents(account);
    await appendLedger(store, account, [credit!]);
    await appendLedger(store, account, [payment!], { currency: 'EUR' });
    const rows = await transactions(account);
    expect(rows.map((r) => [r.currency, r.type, r.running_pending, r.running_available])).toEqual([
      ['EUR', 'payment', '50.00', '0.00'],
      ['EUR', 'payment_fee', '48.25', '0.00'],
      ['USD', 'adjustment', '0.00', '100.00'],
    ]);
    const euro = await assertMoneyInvariants(database.db, account, 'sandbox', 'EUR');
    expect([euro.pending, euro.available]).toEqual(['48.25', '0.00']);
  });
});
