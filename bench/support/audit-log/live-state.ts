import { CHAIN_BATCH_SIZE, CHAIN_SUBSCRIPTION_ID, chainBatch } from '@payouts/audit';
import type { SqlClient } from '@payouts/database';
import { PostgresEventStore, SubscribeOptions } from '@payouts/event-store';
import { projectReadModels, READ_MODEL_SUBSCRIPTION_ID } from '@payouts/read-models';

export interface KeeperRun {
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/**
 * The chain keeper over the whole log, as apps/projector's ChainKeeper runs it on a history it
 * has not linked (its own subscription, batches of CHAIN_BATCH_SIZE, chainBatch).
 */
export function chainWholeLog(db: SqlClient): Promise<KeeperRun> {
  return followToTheEnd(db, {
    subscriptionId: CHAIN_SUBSCRIPTION_ID,
    batchSize: CHAIN_BATCH_SIZE,
    handle: async (events, tx) => void (await chainBatch(tx, events)),
  });
}

/**
 * The read models over the whole log, through the projector's subscription (`read-models`, its
 * checkpoint moving with each batch) in batches of `batchSize`, projected the way each command's
 * commit projects them inline (projectReadModels with concurrentStreams: new payouts and ledgers
 * that only moved money one statement per batch), which is how most live rows are written. The
 * projector's own mode (one stream at a time, batches of 100) writes the same rows, at about a
 * third of the speed on this machine: minutes more for a million events.
 */
export function projectWholeLog(db: SqlClient, batchSize?: number): Promise<KeeperRun> {
  const source = new PostgresEventStore(db);
  return followToTheEnd(db, {
    subscriptionId: READ_MODEL_SUBSCRIPTION_ID,
    batchSize,
    handle: (events, tx) => projectReadModels(tx, source, events, { concurrentStreams: true }),
  });
}

/** How often a follower's failure is looked for: on a log no one else writes, any is a bug. */
const WATCH_MS = 500;

async function followToTheEnd(
  db: SqlClient,
  options: Pick<SubscribeOptions, 'subscriptionId' | 'batchSize' | 'handle'>,
): Promise<KeeperRun> {
  const started = Date.now();
  let events = 0;
  const store = new PostgresEventStore(db);
  const subscription = store.subscribe({
    ...options,
    pollIntervalMs: 5,
    wakeOnAppend: false,
    handle: async (batch, tx) => {
      await options.handle(batch, tx);
      events += batch.length;
    },
  });
  let watch: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      subscription.caughtUp(),
      new Promise<never>((_, reject) => {
        watch = setInterval(() => {
          const error = subscription.lastError;
          if (error)
            reject(new Error(`${options.subscriptionId} failed: ${error.message}`, { cause: error }));
        }, WATCH_MS);
      }),
    ]);
  } finally {
    clearInterval(watch);
    await subscription.stop();
    await store.close();
  }
  const seconds = (Date.now() - started) / 1000;
  return { events, seconds, eventsPerSecond: Math.round(events / seconds) };
}
