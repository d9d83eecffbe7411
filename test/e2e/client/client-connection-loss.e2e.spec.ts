import { createServer } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { PayoutsClient, PayoutsConnectionError } from '@payouts/client';
import { client, Gateway, merchant, startGateway } from '../api/gateway-harness';
import type { Call, Merchant } from '../api/gateway-harness';
import {
  FirstConnection,
  linkPayout,
  payoutsWithReference,
  recordingFetch,
  startFlakyRelay,
} from './client-harness';

/**
 * No answer: the connection to the service is reset on the first attempt (by a real TCP relay in
 * front of the embedded service), before the request reached it or after it did the work. The
 * client retries with the same Idempotency-Key, and there is exactly one payout either way.
 */
describe('a create whose connection is lost', () => {
  let gateway: Gateway;
  let call: Call;
  let shop: Merchant;

  beforeAll(async () => {
    gateway = await startGateway('pglite');
    call = client(gateway.url);
    shop = await merchant(call, '100.00');
  });
  afterAll(() => gateway.close());

  const payoutsOf = (reference: string) => payoutsWithReference(call, shop, reference);

  it.each([
    ['before the request reached the service', 'reset_before_sending', null, '10.50'],
    ['after the service made the payout', 'reset_after_answer_began', 'true', '21.00'],
  ] as const)(
    'is retried with the same key when the connection is reset %s: one payout',
    async (_when, first: FirstConnection, replayed, holds) => {
      const relay = await startFlakyRelay(gateway.url, first);
      try {
        const recorder = recordingFetch();
        const api = new PayoutsClient({
          baseUrl: `${relay.url}/sandbox`,
          token: shop.token,
          fetch: recorder.fetch,
          retryBaseDelayMs: 50,
        });
        const reference = `lost-${first}`;
        const payout = await api.payouts.create(linkPayout(reference));

        expect(relay.connections).toBe(2);
        const [lost, retried] = recorder.exchanges;
        expect(recorder.exchanges).toHaveLength(2);
        expect(lost!.response).toBeUndefined(); // fetch threw: no answer
        expect(retried!.response!.status).toBe(201);
        expect(retried!.headers['idempotency-key']).toBe(lost!.headers['idempotency-key']);
        // Reset after the work: the retry is the stored answer to the first attempt.
        expect(retried!.response!.headers.get('idempotent-replayed')).toBe(replayed);

        const listed = await payoutsOf(reference);
        expect(listed.total).toBe(1);
        expect(listed.data[0].payout_id).toBe(payout.payout_id);
        const balance = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
        expect(balance.body.customer_payout_holds).toBe(holds);
      } finally {
        await relay.close();
      }
    },
  );

  it('gives up with PayoutsConnectionError, carrying the key, when nothing ever answers', async () => {
    // A port nobody listens on: every connection is refused.
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const recorder = recordingFetch();
    const api = new PayoutsClient({
      baseUrl: `http://127.0.0.1:${port}/sandbox`,
      token: shop.token,
      fetch: recorder.fetch,
      maxRetries: 2,
      retryBaseDelayMs: 10,
    });
    const error = await api.payouts
      .create(linkPayout('never-answered'), { idempotencyKey: 'never-answered-key' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayoutsConnectionError);
    expect(error).toMatchObject({ attempts: 3, idempotencyKey: 'never-answered-key' });
    expect(recorder.exchanges).toHaveLength(3);
    expect(recorder.exchanges.every((exchange) => exchange.response === undefined)).toBe(true);
    // Reads are retried the same way, without a key.
    await expect(api.payouts.balance()).rejects.toBeInstanceOf(PayoutsConnectionError);
    expect(recorder.exchanges.slice(3).map((exchange) => exchange.headers['idempotency-key'])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
