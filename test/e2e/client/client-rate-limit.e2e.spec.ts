import { PayoutsClient } from '@payouts/client';
import { client, merchant, startGateway } from '../api/gateway-harness';
import type { Gateway, Merchant } from '../api/gateway-harness';
import { linkPayout, recordingFetch } from './client-harness';

/**
 * The service's own 429: a credential past its rate (RATE_LIMIT_*, one request a second here) is
 * refused with `rate_limited` and Retry-After before anything is done. The client waits as asked
 * and retries with the same Idempotency-Key: one payout.
 */
describe('a create refused with 429 rate_limited by the service', () => {
  let gateway: Gateway;
  let shop: Merchant;

  beforeAll(async () => {
    gateway = await startGateway('pglite', { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' });
    shop = await merchant(client(gateway.url), '100.00');
  });
  afterAll(() => gateway.close());

  it('is retried after Retry-After with the same key and makes one payout', async () => {
    const recorder = recordingFetch();
    const api = new PayoutsClient({
      baseUrl: `${gateway.url}/sandbox`,
      token: shop.token,
      fetch: recorder.fetch,
    });
    // The credential's one request of this second; the create right after it is over the rate.
    await api.payouts.balance();
    const payout = await api.payouts.create(linkPayout('limited-1'));

    const [, refused, retried] = recorder.exchanges;
    expect(recorder.exchanges).toHaveLength(3);
    expect(refused!.response!.status).toBe(429);
    expect(JSON.parse(refused!.body!).error.code).toBe('rate_limited');
    const retryAfterMs = Number(refused!.response!.headers.get('retry-after')) * 1000;
    expect(retryAfterMs).toBeGreaterThanOrEqual(1000);
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(retryAfterMs);
    expect(retried!.response!.status).toBe(201);
    expect(retried!.headers['idempotency-key']).toBe(refused!.headers['idempotency-key']);

    // One payout, read once the rate allows (the client waits for it again).
    const listed = await api.payouts.list({ merchant_reference: 'limited-1' });
    expect(listed.total).toBe(1);
    expect(listed.data[0]!.payout_id).toBe(payout.payout_id);
  });
});
