/**
 * The projector's feed work alone, as its own process (as in the projector's container): follows
 * the feed of DATABASE_URL and projects the read models as apps/projector does, and with CHAIN=on
 * also links the audit chain the way it does (in the projector's batch, plus the chain's own
 * catch-up subscription), until SIGTERM. Used by bench/chain-keeper.bench.ts.
 */
import {
  CHAIN_BATCH_SIZE,
  CHAIN_CATCH_UP_POLL_MS,
  CHAIN_SUBSCRIPTION_ID,
  chainAlongside,
  chainBatch,
} from '@payouts/audit';
import { PostgresSqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { projectReadModels, READ_MODEL_SUBSCRIPTION_ID } from '@payouts/read-models';

/** The projector's default poll (PROJECTOR_POLL_MS). */
const PROJECTOR_POLL_MS = 50;

async function main(): Promise<void> {
  const chain = process.env.CHAIN === 'on';
  const db = new PostgresSqlClient({ connectionString: process.env.DATABASE_URL ?? '', maxConnections: 4 });
  const store = new PostgresEventStore(db);
  const subscriptions = [
    store.subscribe({
      subscriptionId: READ_MODEL_SUBSCRIPTION_ID,
      pollIntervalMs: PROJECTOR_POLL_MS,
      handle: async (events, tx) => {
        await projectReadModels(tx, store, events);
        if (chain) await chainAlongside(tx, events, READ_MODEL_SUBSCRIPTION_ID);
      },
    }),
  ];
  if (chain) {
    subscriptions.push(
      store.subscribe({
        subscriptionId: CHAIN_SUBSCRIPTION_ID,
        batchSize: CHAIN_BATCH_SIZE,
        pollIntervalMs: CHAIN_CATCH_UP_POLL_MS,
        handle: async (events, tx) => {
          await chainBatch(tx, events);
        },
      }),
    );
  }
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  for (const subscription of subscriptions) await subscription.stop();
  await store.close();
  await db.close();
}

void main();
