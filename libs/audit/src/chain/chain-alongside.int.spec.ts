import type { SqlClient } from '@payouts/database';
import { EventStore, FEED_START, PostgresEventStore } from '@payouts/event-store';
import { testBackends, TestDatabase } from '@payouts/testing';
import { appendHistory, AT, chainEverything } from '../testing/audit-history';
import { verifyLog } from '../verify/verify-log';
import { chainAlongside } from './chain-alongside';

const FOLLOWER = 'read-models';

/** Runs the follower (as the read-model projector does) over everything committed, in small batches. */
async function follow(store: EventStore, chain: boolean): Promise<void> {
  const subscription = store.subscribe({
    subscriptionId: FOLLOWER,
    pollIntervalMs: 5,
    batchSize: 3,
    handle: async (events, tx) => {
      if (chain) await chainAlongside(tx, events, FOLLOWER);
    },
  });
  try {
    await subscription.caughtUp();
  } finally {
    await subscription.stop();
  }
}

/** A credit on a ledger of its own: one more legal event after the history. */
async function credit(store: EventStore, accountId: string): Promise<void> {
  await store.append([
    {
      streamId: `ledger-${accountId}-sandbox`,
      streamType: 'ledger',
      expectedVersion: 0,
      events: [
        {
          type: 'FundsCredited',
          schemaVersion: 2,
          data: {
            accountId,
            environment: 'sandbox',
            amount: '5.00',
            reference: 'w',
            reason: 'top up',
            at: AT,
          },
        },
      ],
    },
  ]);
}

async function links(db: SqlClient): Promise<number> {
  const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM event_chain');
  return Number(rows[0]!.n);
}

/** The events committed (the tests' logs are far shorter than a page of the feed). */
async function events(store: EventStore): Promise<number> {
  return (await store.readFeed(FEED_START, 10_000)).length;
}

async function findingsOf(db: SqlClient): Promise<{ findings: number; notYetChained: number }> {
  let findings = 0;
  const report = await verifyLog(db, { onFinding: () => (findings += 1), batchSize: 5 });
  return { findings, notYetChained: report.chain.notYetChained };
}

describe.each(testBackends())('linking the chain in the projector’s batches on $name', (backend) => {
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

  it('links every batch the follower reads when the chain is where the follower stands, and verify holds', async () => {
    await appendHistory(store);
    await follow(store, true);
    expect(await links(database.db)).toBe(await events(store));
    expect(await findingsOf(database.db)).toEqual({ findings: 0, notYetChained: 0 });
  });

  it('leaves the batches to the chain’s own subscription while the chain is behind, then takes over', async () => {
    await appendHistory(store);
    await follow(store, false); // the projector ran before the chain existed
    await credit(store, 'acc_2');
    await follow(store, true);
    expect(await links(database.db)).toBe(0); // linking it would skip the history

    await chainEverything(store); // the keeper catches up
    await credit(store, 'acc_3');
    await follow(store, true);
    expect(await links(database.db)).toBe(await events(store));
    expect(await findingsOf(database.db)).toEqual({ findings: 0, notYetChained: 0 });
  });

  it('never links an event twice when the keeper and the follower both reach it', async () => {
    await appendHistory(store);
    await chainEverything(store); // the chain is ahead of the follower
    await follow(store, true);
    await credit(store, 'acc_2');
    await Promise.all([follow(store, true), chainEverything(store)]);
    expect(await links(database.db)).toBe(await events(store));
    expect(await findingsOf(database.db)).toEqual({ findings: 0, notYetChained: 0 });
  });
});
