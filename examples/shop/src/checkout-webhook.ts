import type { IncomingHttpHeaders } from 'node:http';
import { verifyCheckoutWebhook } from '@payouts/client';
import { markOrder } from './effects';
import type { Store } from './store';

/**
 * POST /webhooks/checkout: `{"order_id":…,"status":"SUCCESS",…}` signed with the checkout API
 * secret over the raw bytes. Answers 401 to anything not signed by the service; otherwise records
 * the order paid (once: deliveries are at least once) and answers 200 as soon as that is on disk.
 */
export async function handleCheckoutWebhook(
  store: Store,
  apiSecret: string,
  raw: Buffer,
  headers: IncomingHttpHeaders,
): Promise<number> {
  const signature = headers['x-service-signature'];
  const signed = verifyCheckoutWebhook(raw, typeof signature === 'string' ? signature : undefined, apiSecret);
  if (!signed) return 401;
  const body = JSON.parse(raw.toString('utf8')) as { order_id: number; status: string };
  if (body.status !== 'SUCCESS') return 200;
  // order_id 0 is the dashboard's test webhook: no order of the shop's, so markOrder leaves it.
  await store.update((data) => markOrder(data, body.order_id, 'paid', 'webhook'));
  return 200;
}
