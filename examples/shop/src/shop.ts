import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PayoutsClient } from '@payouts/client';
import type { ShopConfig } from './config';
import { reconcileFromFeed } from './reconcile';
import { createRouter } from './routes';
import { Store } from './store';

export interface RunningShop {
  /** Where it listens: `http://127.0.0.1:<port>`. */
  url: string;
  /** Stops listening, closes open connections and waits for the records to be on disk. */
  stop(): Promise<void>;
}

/**
 * Starts the shop: its records from DATA_DIR, its pages and webhook endpoints, then a catch-up
 * from the events feed. Resolves once caught up, so a restarted shop's records are current.
 */
export async function startShop(config: ShopConfig): Promise<RunningShop> {
  const log = config.log ?? console.log;
  const store = await Store.open(config.dataDir);
  // The service takes the checkout key on checkout paths and the payout credential on payout
  // paths, never the other way round: one client each.
  const checkout = new PayoutsClient({ baseUrl: config.serviceUrl, token: config.checkoutApiKey });
  const payouts = new PayoutsClient({ baseUrl: config.serviceUrl, token: config.payoutToken });
  const context = { config, store, checkout, payouts, publicUrl: config.publicUrl ?? '' };
  const server = createServer(createRouter(context));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  context.publicUrl ||= url;

  // Listening first: a webhook arriving during the catch-up is applied once either way.
  try {
    const read = await reconcileFromFeed(store, { checkout, payouts }, log);
    log(`shop: ${url}, caught up with ${read} events from the feed`);
  } catch (error) {
    // The shop still serves; its records catch up at the next start (or a webhook brings the change).
    log(`shop: ${url}, could not catch up from the feed: ${String(error)}`);
  }

  return {
    url,
    stop: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
      await store.flushed();
    },
  };
}
