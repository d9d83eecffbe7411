import { EVENT_STORE_LIMITS, PostgresEventStore } from '@payouts/event-store';
import { FEED_LAG_CAP } from '@payouts/observability';
import { testBackends, TestDatabase } from '@payouts/testing';
import { measureFeedLag } from './feed-lag';

describe.each(testBackends())('a subscription lag for the metrics, on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  it('counts the events not processed yet and measures the oldest one’s age, 0 once caught up', async () => {
    expect(await measureFeedLag(store, 'lagging')).toEqual({ events: 0, seconds: 0 });
    const { events } = await store.append([
      {
        streamId: 'lag-1',
        streamType: 'lag',
        expectedVersion: 0,
        events: [1, 2, 3].map((i) => ({ type: 'E', schemaVersion: 1, data: { i } })),
      },
    ]);
    const recordedAt = events[0]!.recordedAt.getTime();
    expect(await measureFeedLag(store, 'lagging', () => recordedAt + 2_500)).toEqual({
      events: 3,
      seconds: 2.5,
    });
    // A process clock behind the database's reads as no age, never a negative one.
    expect((await measureFeedLag(store, 'lagging', () => recordedAt - 1_000)).seconds).toBe(0);

    const subscription = store.subscribe({ subscriptionId: 'lagging', handle: async () => undefined });
    await subscription.caughtUp();
    await subscription.stop();
    expect(await measureFeedLag(store, 'lagging')).toEqual({ events: 0, seconds: 0 });
  });

  it('counts no further than the port allows in one call', () => {
    expect(FEED_LAG_CAP).toBeLessThanOrEqual(EVENT_STORE_LIMITS.maxFeedPage);
  });
});
