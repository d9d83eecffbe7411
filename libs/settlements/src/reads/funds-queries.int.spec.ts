import type { LedgerEvent } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { createReadModelClient, ReadModelClient } from '@payouts/read-models';
import { appendLedger, fundsFlowEvents, testBackends, TestDatabase } from '@payouts/testing';
import { FundsQueries } from './funds-queries';

const payment = (orderId: number, gross: string, fee: string, net: string, at: string): LedgerEvent => ({
  type: 'PaymentProceedsRecorded',
  data: { orderId, method: 'card', gross, fee, net, paidAt: at, availableOn: '2026-03-20T10:00:00.000Z', at },
});

/**
 * The status filter of FundsQueries.transactions: the dashboard's pending proceeds (Home). The
 * API's list never sets it (its parser has no `status`); every other filter is the API's, tested
 * with its route.
 */
describe.each(testBackends())('FundsQueries.transactions by status on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let readModels: ReadModelClient;
  let queries: FundsQueries;
  const ACCOUNT = `acct_${backend.name}_status`;

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    readModels = createReadModelClient(database.db);
    queries = new FundsQueries(readModels);
    // Every row type, all cleared; then two payments that have not cleared, one in EUR.
    await appendLedger(store, ACCOUNT, fundsFlowEvents(ACCOUNT, '2026-03-10'));
    await appendLedger(store, ACCOUNT, [
      payment(1000003, '20.00', '0.88', '19.12', '2026-03-11T09:00:00.000Z'),
    ]);
    await appendLedger(
      store,
      ACCOUNT,
      [payment(1000004, '5.00', '0.00', '5.00', '2026-03-11T09:30:00.000Z')],
      {
        currency: 'EUR',
      },
    );
  });
  afterAll(async () => {
    await readModels.$disconnect();
    await store.close?.();
    await database.drop();
  });

  it('lists only the rows of that status, with their total, newest first, other filters still applying', async () => {
    const pending = await queries.transactions(ACCOUNT, 'sandbox', {
      status: 'pending',
      limit: 50,
      offset: 0,
    });
    expect(pending.total).toBe(3);
    expect(pending.data.map((row) => [row.order_id, row.type, row.currency, row.net, row.status])).toEqual([
      [1000004, 'payment', 'EUR', '5.00', 'pending'],
      [1000003, 'payment_fee', 'USD', '-0.88', 'pending'],
      [1000003, 'payment', 'USD', '20.00', 'pending'],
    ]);
    const usdPayments = await queries.transactions(ACCOUNT, 'sandbox', {
      status: 'pending',
      type: 'payment',
      currency: 'USD',
      limit: 50,
      offset: 0,
    });
    expect(usdPayments.data.map((row) => row.order_id)).toEqual([1000003]);

    const all = await queries.transactions(ACCOUNT, 'sandbox', { limit: 200, offset: 0 });
    const failed = await queries.transactions(ACCOUNT, 'sandbox', { status: 'failed', limit: 50, offset: 0 });
    expect(failed.data).toEqual(all.data.filter((row) => row.status === 'failed'));
    expect(failed.total).toBeGreaterThan(0);
  });
});
