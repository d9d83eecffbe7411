/**
 * The chain keeper alone, as its own process (as in the projector's container): follows the feed
 * of DATABASE_URL and links every event until SIGTERM. Used by bench/chain-keeper.bench.ts.
 */
import { CHAIN_BATCH_SIZE, CHAIN_POLL_MIN_MS, CHAIN_SUBSCRIPTION_ID, chainBatch } from '@payouts/audit';
import { PostgresSqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';

async function main(): Promise<void> {
  const db = new PostgresSqlClient({ connectionString: process.env.DATABASE_URL ?? '', maxConnections: 4 });
  const store = new PostgresEventStore(db);
  // The keeper's settings in the projector (apps/projector/src/chain-keeper.ts).
  const subscription = store.subscribe({
    subscriptionId: CHAIN_SUBSCRIPTION_ID,
    batchSize: CHAIN_BATCH_SIZE,
    pollIntervalMs: CHAIN_POLL_MIN_MS,
    handle: async (events, tx) => {
      await chainBatch(tx, events);
    },
  });
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  await subscription.stop();
  await store.close();
  await db.close();
}

void main();
