import { PayoutsApiError, PayoutsClient } from '@payouts/client';
import { applyEvent, markOrder, updateRefund } from './effects';
import type { Store } from './store';

/** The feed's types that change the shop's records. */
export const FEED_TYPES = 'order.paid,order.expired,payout.updated';

/** Payout statuses nothing changes any more. */
const FINAL_PAYOUT_STATUSES = new Set(['paid', 'failed', 'expired', 'cancelled']);

export interface Clients {
  /** Holds the checkout API key. */
  checkout: PayoutsClient;
  /** Holds the payout credential (the feed needs `payouts:read`). */
  payouts: PayoutsClient;
}

/**
 * Catches up on what happened while the shop was not listening (a webhook that found it down is
 * retried for hours, but the feed has it now): every event after the last one stored, oldest
 * first, applied exactly as the webhooks apply theirs, the feed position stored with each.
 * Returns how many events it read.
 */
export async function reconcileFromFeed(
  store: Store,
  clients: Clients,
  log: (line: string) => void,
): Promise<number> {
  try {
    return await readFeed(store, clients.payouts, store.data.last_event_id ?? undefined);
  } catch (error) {
    if (!(error instanceof PayoutsApiError && error.code === 'cursor_expired')) throw error;
    // Down longer than the feed keeps events (30 days): what happened to an open order or refund
    // may be gone from the feed, so ask for each one's status, then read the feed from its oldest.
    log(`shop: the feed no longer has event ${store.data.last_event_id}; asking for open orders and refunds`);
    await refreshOpenRecords(store, clients);
    await store.update((data) => {
      data.last_event_id = null;
    });
    return readFeed(store, clients.payouts, undefined);
  }
}

async function readFeed(store: Store, client: PayoutsClient, after: string | undefined): Promise<number> {
  let read = 0;
  for await (const event of client.events.listAll({ after, types: FEED_TYPES })) {
    await store.update((data) => {
      applyEvent(data, event, 'feed');
      data.last_event_id = event.id;
    });
    read += 1;
  }
  return read;
}

/** Each pending order's and unfinished refund's status, from Get Payments Status and Get Payout. */
async function refreshOpenRecords(store: Store, clients: Clients): Promise<void> {
  for (const order of Object.values(store.data.orders).filter((o) => o.status === 'pending')) {
    const { status } = await clients.checkout.orders.status(order.id);
    if (status === 'PENDING') continue;
    await store.update((data) =>
      markOrder(data, order.id, status === 'SUCCESS' ? 'paid' : 'expired', 'status'),
    );
  }
  for (const refund of Object.values(store.data.refunds)) {
    if (FINAL_PAYOUT_STATUSES.has(refund.status)) continue;
    const payout = await clients.payouts.payouts.get(refund.payout_id);
    await store.update((data) => updateRefund(data, payout, 'status'));
  }
}
