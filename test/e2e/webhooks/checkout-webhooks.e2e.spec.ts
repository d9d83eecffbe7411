import { createHmac } from 'node:crypto';
import { verifyCheckoutWebhook } from '@payouts/webhooks';
import {
  appendCreatedOrder,
  newTestOrderId,
  payCreatedOrder,
} from '../../../libs/webhooks/src/testing/paid-orders';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { Call, merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startWebhookGateway, WebhookGateway } from './webhook-harness';

/**
 * Checkout webhooks in the embedded start (`npm start`: no Kafka, the in-process transport): a
 * paid order's events, appended to the app's own event store as the order commands append them,
 * reach the order's hook_url signed with the API secret of a credential issued through the
 * dashboard (the dispatcher reads it with the app's own ENCRYPTION_KEY), and a failing receiver is
 * retried as the operator moves the sandbox clock.
 */
describe('checkout webhooks in the embedded start', () => {
  let gateway: WebhookGateway;
  let receiver: TestReceiver;

  beforeAll(async () => {
    gateway = await startWebhookGateway({ env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } });
    receiver = await TestReceiver.start();
  });
  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: 'ok' });
  });

  /** A merchant with a sandbox checkout credential issued through the dashboard. */
  const checkoutMerchant = async (call: Call) => {
    const shop = await merchant(call, '0.00');
    const issued = await call('POST', '/dashboard/credentials', {
      token: shop.adminToken,
      body: { kind: 'checkout', environment: 'sandbox' },
    });
    expect(issued.status).toBe(201);
    return {
      accountId: shop.accountId,
      credentialId: issued.body.credential_id as string,
      secret: issued.body.secret as string,
    };
  };
  const moveSandboxClock = async (seconds: number) => {
    const moved = await gateway.call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: seconds },
    });
    expect(moved.status).toBe(200);
    gateway.dispatcher.wake();
  };

  it('delivers a paid order to its hook_url, signed with the API secret, and retries a 500 on the sandbox clock', async () => {
    const { accountId, credentialId, secret } = await checkoutMerchant(gateway.call);
    expect(secret).toMatch(/^cks_/);
    receiver.answer = () => ({ status: 500, body: 'not yet' });
    const orderId = newTestOrderId();
    await appendCreatedOrder(gateway.store, {
      orderId,
      accountId,
      environment: 'sandbox',
      credentialId,
      amount: '0.50',
      product: 'Sticker',
      hookUrl: receiver.url('/checkout/hook'),
    });
    await payCreatedOrder(gateway.store, orderId);

    await receiver.waitForRequests(1);
    const body = `{"order_id":${orderId},"status":"SUCCESS","amount":0.5,"product":"Sticker"}`;
    const [first] = receiver.received;
    expect(first!.rawBody).toBe(body);
    expect(first!.path).toBe('/checkout/hook');
    expect(first!.headers['x-service-signature']).toBe(
      createHmac('sha256', secret).update(body).digest('hex'),
    );

    // Not due before a minute has passed on the sandbox clock (5 s to spare for a slow machine);
    // due after it.
    await moveSandboxClock(55);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(1);
    receiver.answer = () => ({ status: 200, body: 'ok' });
    await moveSandboxClock(5);
    await receiver.waitForRequests(2);
    const second = receiver.received[1]!;
    expect(second.rawBody).toBe(body);
    expect(verifyCheckoutWebhook(second.rawBody, String(second.headers['x-service-signature']), secret)).toBe(
      true,
    );

    const delivery = await eventually(async () => {
      const { rows } = await gateway.db.query<{ status: string; attempts_made: number }>(
        `SELECT d.status, d.attempts_made FROM webhook_deliveries d JOIN webhook_events e USING (event_id)
          WHERE e.order_id = $1`,
        [orderId],
      );
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    expect(delivery).toEqual([{ status: 'delivered', attempts_made: 2 }]);
  });

  it('sends nothing for a paid order that has no hook_url', async () => {
    const { accountId, credentialId } = await checkoutMerchant(gateway.call);
    const orderId = newTestOrderId();
    const order = { accountId, environment: 'sandbox' as const, credentialId, amount: '3.00', product: '' };
    await appendCreatedOrder(gateway.store, { ...order, orderId, hookUrl: null });
    await payCreatedOrder(gateway.store, orderId);
    await gateway.dispatcher.caughtUp();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { rows } = await gateway.db.query('SELECT 1 FROM webhook_events WHERE order_id = $1', [orderId]);
    expect(rows).toEqual([]);
    expect(receiver.received).toHaveLength(0);
  });
});
