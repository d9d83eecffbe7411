import type { ReceivedWebhook } from '../../../libs/webhooks/src/testing/receiver';

/**
 * What a merchant's receiver de-duplicates on (docs/webhooks.md): a payout webhook's `id`, and a
 * checkout webhook's `order_id` (its event id is derived from the order id, one per order).
 */
export function eventKeyOf(request: ReceivedWebhook): string {
  const body = JSON.parse(request.rawBody) as { id?: string; order_id?: number };
  return body.id !== undefined ? `payout-event:${body.id}` : `order:${body.order_id}`;
}

/** Receipts per event: how many times the receiver saw each, and when it first did. */
export function tally(received: readonly ReceivedWebhook[]): Map<string, { count: number; firstAt: number }> {
  const seen = new Map<string, { count: number; firstAt: number }>();
  for (const request of received) {
    const key = eventKeyOf(request);
    const entry = seen.get(key);
    if (entry) entry.count += 1;
    else seen.set(key, { count: 1, firstAt: request.at });
  }
  return seen;
}
