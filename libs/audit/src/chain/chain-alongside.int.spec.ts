import type { SqlClient } from '@payouts/database';
import { EventStore, PostgresEventStore } from '@payouts/event-store';
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

async function count(db: SqlClient, table: 'events' | 'event_chain'): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
  return Number(rows[0]!.n);
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
    expect(await count(database.db, 'event_chain')).toBe(await count(database.db, 'events'));
    expect(await findingsOf(database.db)).toEqual({ findings: 0, notYetChained: 0 });
  });

  it('takes recorded_at with its microseconds from the feed’s read, as the database keeps it', async () => {
    await credit(store, 'acc_micros');
    // The feed hands it out once no older transaction is in flight anywhere on the server.
    let [event] = await store.readFeed({ transactionId: '0', position: '0' }, 1);
    for (let tries = 0; event === undefined && tries < 400; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      [event] = await store.readFeed({ transactionId: '0', position: '0' }, 1);
    }
    const { rows } = await database.db.query<{ at: string }>(
      `SELECT to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM events`,
    );
    expect(event!.recordedAtMicros).toBe(rows[0]!.at);
    expect(event!.recordedAtMicros).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(event!.recordedAt.toISOString().slice(0, 23)).toBe(event!.recordedAtMicros!.slice(0, 23));
  });

  it('leaves the batches to the chain’s own subscription while the chain is behind, then takes over', async () => {
    await appendHistory(store);
    await follow(store, false); // the projector ran before the chain existed
    await credit(store, 'acc_2');
    await follow(store, true);
    expect(await count(database.db, 'event_chain')).toBe(0); // linking it would skip the history

    await chainEverything(store); // the keeper catches up
    await credit(store, 'acc_3');
    await follow(store, true);
    expect(await count(database.db, 'event_chain')).toBe(await count(database.db, 'events'));
    expect(await findingsOf(database.db)).toEqual({ findings: 0, notYetChained: 0 });
  });

  it('never links an event twice when the keeper and the follower both reach it', async () => {
    await appendHistory(store);
    await chainEverything(store); // the chain is ahead of the follower
    await follow(store, true);
    await credit(store, 'acc_2');
    await Promise.all([follow(store, true), chainEverything(store)]);
    expect(await count(database.db, 'event_chain')).toBe(await count(database.db, 'events'));
    expect(await findingsOf(database.db)).toEqual({ findings: 0, notYetChained: 0 });
  });
});
