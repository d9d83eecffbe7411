import type { IncomingHttpHeaders } from 'node:http';
import { verifyPayoutWebhook, WebhookSignatureError } from '@payouts/client';
import { applyEvent, ServiceEvent } from './effects';
import type { Store } from './store';

/**
 * POST /webhooks/payouts: a `payout.updated` (the payout is paid) or `payout.test`, signed
 * `t=…,v1=…` over `<t>.<raw body>`. Answers 400 to a bad signature; otherwise
 * applies it once by its event id (the feed's event for the same change has the same id) and
 * answers 200 as soon as that is on disk.
 */
export async function handlePayoutWebhook(
  store: Store,
  secret: string,
  raw: Buffer,
  headers: IncomingHttpHeaders,
): Promise<number> {
  const signature = headers['x-service-payout-signature'];
  try {
    verifyPayoutWebhook(raw, typeof signature === 'string' ? signature : undefined, secret);
  } catch (error) {
    if (error instanceof WebhookSignatureError) return 400;
    throw error;
  }
  const event = JSON.parse(raw.toString('utf8')) as ServiceEvent;
  await store.update((data) => applyEvent(data, event, 'webhook'));
  return 200;
}
