import { testBackends, TestDatabase } from '@payouts/testing';
import { FEED_START } from './event-store.port';
import { PostgresEventStore } from './postgres/postgres-event-store';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testBackends())('waking subscriptions on appends, on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  beforeEach(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it("wakes a subscription at once after the store's own append, unless it asked to only poll", async () => {
    const seen = { woken: 0, quiet: 0 };
    const options = { pollIntervalMs: 60_000 };
    store.subscribe({
      ...options,
      subscriptionId: 'woken',
      handle: async (e) => void (seen.woken += e.length),
    });
    store.subscribe({
      ...options,
      subscriptionId: 'quiet',
      wakeOnAppend: false,
      handle: async (e) => void (seen.quiet += e.length),
    });
    await pause(200); // both have looked once and now sleep for a minute
    await store.append([
      {
        streamId: 's-1',
        streamType: 's',
        expectedVersion: 0,
        events: [{ type: 'E', schemaVersion: 1, data: {} }],
      },
    ]);
    await pause(500);
    expect(seen).toEqual({ woken: 1, quiet: 0 });
    expect(await store.loadCheckpoint('quiet')).toEqual(FEED_START);
  });
});
