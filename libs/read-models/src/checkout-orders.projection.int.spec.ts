import { PostgresEventStore } from '@payouts/event-store';
import { testBackends, TestDatabase } from '@payouts/testing';
import { ProjectableEvent } from './projectable-event';
import { projectReadModels } from './read-model.projection';

const AT = '2026-03-01T12:00:00.000Z';

function created(orderId: number, instrumentless = true): ProjectableEvent {
  return {
    streamId: `order-${orderId}`,
    streamType: 'order',
    streamVersion: 1,
    type: 'OrderCreated',
    schemaVersion: 1,
    data: {
      orderId,
      accountId: 'acc_1',
      environment: 'sandbox',
      method: instrumentless ? 'card' : 'mobile_wallet',
      amount: `${orderId % 1000}.25`,
      currency: 'USD',
      customer: `customer "${orderId}" {x}, \\ y`, // quotes, braces, commas, a backslash: array literal text
      product: 'Blue mug',
      redirectUrl: orderId % 2 === 0 ? null : 'https://shop.example/back',
      hookUrl: null,
      credentialId: 'cred_1',
      pageTokenHash: `hash-page-${orderId}`,
      createdAt: AT,
      expiresAt: '2026-03-02T12:00:00.000Z',
    },
  };
}

const paid = (orderId: number, version: number): ProjectableEvent => ({
  streamId: `order-${orderId}`,
  streamType: 'order',
  streamVersion: version,
  type: 'OrderPaid',
  schemaVersion: 1,
  data: { orderId, attempt: 1, instrument: { kind: 'card', brand: 'visa', last4: '4242' }, at: AT },
});

async function ordersOf(db: TestDatabase['db']): Promise<string[]> {
  const { rows } = await db.query<{ row: string }>(
    'SELECT t::text AS row FROM checkout_orders t ORDER BY order_id',
  );
  return rows.map((r) => r.row);
}

describe.each(testBackends())('the checkout orders projection on $name', (backend) => {
  let concurrent: TestDatabase;
  let oneByOne: TestDatabase;

  beforeEach(async () => {
    [concurrent, oneByOne] = [await backend.open(), await backend.open()];
  });
  afterEach(async () => {
    await concurrent.drop();
    await oneByOne.drop();
  });

  it('writes a batch of new orders in one statement as one stream at a time does, and later events over them', async () => {
    const first = [created(1001), created(1002, false), paid(1002, 2), created(1003)];
    // 1001's payment comes in a later batch, without its first event: it is read back from the log.
    const second = [paid(1001, 2)];
    for (const database of [concurrent, oneByOne]) {
      const store = new PostgresEventStore(database.db);
      for (const event of [...first, ...second]) {
        await store.append([
          {
            streamId: event.streamId,
            streamType: event.streamType,
            expectedVersion: event.streamVersion - 1,
            events: [{ type: event.type, schemaVersion: event.schemaVersion, data: event.data }],
          },
        ]);
      }
      await store.close();
    }
    for (const batch of [first, second]) {
      await concurrent.db.transaction((tx) =>
        projectReadModels(tx, new PostgresEventStore(concurrent.db), batch, { concurrentStreams: true }),
      );
      await oneByOne.db.transaction((tx) =>
        projectReadModels(tx, new PostgresEventStore(oneByOne.db), batch),
      );
    }
    const rows = await ordersOf(concurrent.db);
    expect(rows).toHaveLength(3);
    expect(rows.filter((row) => row.includes('SUCCESS'))).toHaveLength(2);
    const customer = await concurrent.db.query<{ customer: string }>(
      'SELECT customer FROM checkout_orders WHERE order_id = 1001',
    );
    expect(customer.rows[0]!.customer).toBe('customer "1001" {x}, \\ y');
    expect(rows).toEqual(await ordersOf(oneByOne.db));
    // The same batch again changes nothing (a replay, or the projector after an inline projection).
    await concurrent.db.transaction((tx) =>
      projectReadModels(tx, new PostgresEventStore(concurrent.db), first, { concurrentStreams: true }),
    );
    expect(await ordersOf(concurrent.db)).toEqual(rows);
  });
});
