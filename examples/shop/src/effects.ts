import type { ShopData, Source } from './store';

/** An event as the payout webhook and the events feed both carry it. */
export interface ServiceEvent {
  id: string;
  type: string;
  data: unknown;
}

/** What the shop reads of a payout (Get Payout's fields; the webhook's and the feed's `data`). */
export interface PayoutState {
  payout_id: string;
  status: string;
  status_version: number;
}

/** How many applied event ids the shop remembers: far more than a catch-up or a retry could repeat. */
const SEEN_EVENT_IDS_KEPT = 10_000;

/**
 * Marks a pending order paid or expired. Both are final, so telling it again (a webhook retried,
 * the feed after the webhook) changes nothing. An order the shop did not create is not its own.
 */
export function markOrder(data: ShopData, orderId: number, status: 'paid' | 'expired', source: Source): void {
  const order = data.orders[String(orderId)];
  if (!order || order.status !== 'pending') return;
  order.status = status;
  order.history.push({ status, source, at: new Date().toISOString() });
}

/** Moves a refund to the payout's status when that is newer than what the shop has (its status_version). */
export function updateRefund(data: ShopData, payout: PayoutState, source: Source): void {
  const refund = data.refunds[payout.payout_id];
  if (!refund || payout.status_version <= refund.status_version) return;
  refund.status = payout.status;
  refund.status_version = payout.status_version;
  refund.history.push({ status: payout.status, source, at: new Date().toISOString() });
}

/**
 * Applies an event from the payout webhook or the feed, once: an id seen before is skipped, so the
 * paid payout's webhook and its feed event (one id) count once, whichever arrives first.
 */
export function applyEvent(data: ShopData, event: ServiceEvent, source: Source): void {
  if (data.seen_event_ids.includes(event.id)) return;
  switch (event.type) {
    case 'order.paid':
      markOrder(data, (event.data as { id: number }).id, 'paid', source);
      break;
    case 'order.expired':
      markOrder(data, (event.data as { id: number }).id, 'expired', source);
      break;
    case 'payout.updated':
      updateRefund(data, event.data as PayoutState, source);
      break;
    default:
      return; // payout.test, and types the shop does not follow
  }
  data.seen_event_ids.push(event.id);
  if (data.seen_event_ids.length > SEEN_EVENT_IDS_KEPT) data.seen_event_ids.shift();
}
