import {
  PayoutsClient,
  verifyCheckoutWebhook,
  verifyPayoutWebhook,
  WebhookSignatureError,
} from '@payouts/client';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { client, merchant, startGateway } from '../api/gateway-harness';
import type { Call, Gateway } from '../api/gateway-harness';
import { checkoutShop, orderBody } from '../checkout/checkout-harness';
import { Payer } from '../checkout/page-client';
import { recipientClient } from '../recipient/recipient-client';
import { collect, linkPayout } from './client-harness';

/**
 * The client's webhook verifiers against the service's own deliveries: a payout paid end to end
 * (created with the client, claimed and confirmed on the recipient's pages, sent by the worker) and
 * an order paid on its hosted page, each delivered by the embedded service to a local receiver.
 * The delivered bytes verify; the same bytes altered, or another secret, do not.
 */
describe('the client’s webhook verifiers on the service’s deliveries', () => {
  let gateway: Gateway;
  let call: Call;
  let receiver: TestReceiver;

  beforeAll(async () => {
    gateway = await startGateway('pglite', {
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      WEBHOOK_POLL_MS: '20',
      WORKER_POLL_MS: '25',
      RAIL_SIMULATOR_DELAY_MS: '100',
      DEV_MAILBOX: 'true',
    });
    call = client(gateway.url);
    receiver = await TestReceiver.start();
  });
  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
  });

  const tamper = (body: string) => body.replace(/"amount":"?[\d.]+/, (amount) => `${amount}1`);

  it('verifies a paid payout’s payout.updated, refuses it altered or under another secret', async () => {
    const shop = await merchant(call, '100.00');
    const saved = await call('PUT', '/dashboard/payout-webhook', {
      token: shop.adminToken,
      body: { environment: 'sandbox', url: receiver.url('/hooks/payouts') },
    });
    expect(saved.status).toBe(200);
    const secret = saved.body.secret as string;
    const api = new PayoutsClient({ baseUrl: `${gateway.url}/sandbox`, token: shop.token });
    const email = 'webhook-payee@example.com';
    const payout = await api.payouts.create({ ...linkPayout('webhook-1'), customer_email: email });

    // The recipient claims it on the pages: code by e-mail, a wallet, confirm.
    const { open, post, codeFor } = recipientClient(() => gateway.url);
    const { cookie, csrf } = await open(payout.payout_url!);
    expect((await post('/sandbox/recipient/send-code', cookie, { csrf_token: csrf })).status).toBe(303);
    expect(
      (await post('/sandbox/recipient/verify', cookie, { csrf_token: csrf, code: await codeFor(email) }))
        .status,
    ).toBe(303);
    await post('/sandbox/recipient/details', cookie, {
      csrf_token: csrf,
      method: 'wallet',
      wallet_handle: email,
    });
    expect((await post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf })).status).toBe(303);

    const delivered = await eventually(
      () => receiver.received.find((request) => request.path === '/hooks/payouts'),
      30_000,
      'the payout webhook',
    );
    const event = JSON.parse(delivered.rawBody);
    expect(event).toMatchObject({
      type: 'payout.updated',
      data: { payout_id: payout.payout_id, status: 'paid' },
    });
    const { timestamp } = verifyPayoutWebhook(delivered.rawBody, delivered.signature, secret);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(verifyPayoutWebhook(Buffer.from(delivered.rawBody, 'utf8'), delivered.signature, secret)).toEqual({
      timestamp,
    });

    const refusal = (body: string, header: string | undefined, key: string) => {
      try {
        verifyPayoutWebhook(body, header, key);
      } catch (error) {
        if (error instanceof WebhookSignatureError) return error.reason;
        throw error;
      }
      return 'verified';
    };
    expect(tamper(delivered.rawBody)).not.toBe(delivered.rawBody);
    expect(refusal(tamper(delivered.rawBody), delivered.signature, secret)).toBe('signature_mismatch');
    expect(refusal(delivered.rawBody, delivered.signature, `${secret}x`)).toBe('signature_mismatch');
    expect(refusal(delivered.rawBody, undefined, secret)).toBe('missing_header');

    // The feed's payout.updated for the paid payout is the webhook's event: one id across both.
    const feed = await eventually(async () => {
      const updates = await collect(api.events.listAll({ types: ['payout.updated'] }));
      return updates.find((update) => update.id === event.id);
    });
    // The webhook carries a subset of the payout's fields (docs/webhooks.md#events), the feed all of them.
    expect(feed.data).toMatchObject(event.data);
  });

  it('verifies a paid order’s checkout webhook, refuses it altered or under another secret', async () => {
    const shop = await checkoutShop(call, { webhookUrl: receiver.url('/hooks/checkout') });
    const api = new PayoutsClient({ baseUrl: `${gateway.url}/sandbox`, token: shop.key });
    const order = await api.orders.create('card', orderBody({ amount: 12.5, product: 'Blue mug' }));
    const payer = new Payer(`${gateway.url}${new URL(order.order_url).pathname}`);
    expect((await payer.open()).status).toBe(200);
    expect((await payer.payByCard('4242424242424242')).status).toBeLessThan(400);

    const delivered = await eventually(
      () => receiver.received.find((request) => request.path === '/hooks/checkout'),
      30_000,
      'the checkout webhook',
    );
    expect(delivered.rawBody).toBe(
      `{"order_id":${order.order_id},"status":"SUCCESS","amount":12.5,"product":"Blue mug"}`,
    );
    const signature = String(delivered.headers['x-service-signature']);
    expect(verifyCheckoutWebhook(delivered.rawBody, signature, shop.secret)).toBe(true);
    expect(verifyCheckoutWebhook(Buffer.from(delivered.rawBody, 'utf8'), signature, shop.secret)).toBe(true);
    expect(verifyCheckoutWebhook(tamper(delivered.rawBody), signature, shop.secret)).toBe(false);
    expect(verifyCheckoutWebhook(delivered.rawBody, signature, `${shop.secret}x`)).toBe(false);
    expect(verifyCheckoutWebhook(delivered.rawBody, undefined, shop.secret)).toBe(false);
    expect((await api.orders.status(order.order_id)).status).toBe('SUCCESS');
  });
});
