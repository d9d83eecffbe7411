import { createHmac } from 'node:crypto';
import { testBackends } from '@payouts/testing';
import { TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { client, Gateway, startGateway } from '../api/gateway-harness';
import type { Call } from '../api/gateway-harness';
import { checkoutShop } from './checkout-harness';

const SAMPLE = '{"order_id":0,"status":"SUCCESS","amount":1,"product":"Test webhook"}';

describe.each(testBackends().map((b) => b.name))('GET /payment/test_webhook on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;
  let receiver: TestReceiver;

  beforeAll(async () => {
    gateway = await startGateway(backend, { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' });
    call = client(gateway.url);
    receiver = await TestReceiver.start();
  });
  afterAll(async () => {
    await gateway.close();
    await receiver.close();
  });

  it('posts the sample body signed with the key’s API secret and answers 200 with it', async () => {
    const shop = await checkoutShop(call, { webhookUrl: receiver.url('/hooks/checkout') });
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: 'ok' });
    const answer = await call('GET', '/sandbox/payment/test_webhook', { token: shop.key });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ order_id: 0, status: 'SUCCESS', amount: 1, product: 'Test webhook' });
    expect(receiver.received).toHaveLength(1);
    const sent = receiver.received[0]!;
    expect(sent.rawBody).toBe(SAMPLE);
    const expected = createHmac('sha256', shop.secret).update(sent.rawBody).digest('hex');
    expect(sent.headers['x-service-signature']).toBe(expected);
  });

  it('answers 502 webhook_delivery_failed with the receiver’s status when it does not answer 2xx', async () => {
    const shop = await checkoutShop(call, { webhookUrl: receiver.url('/hooks/failing') });
    receiver.answer = () => ({ status: 500, body: 'down' });
    const answer = await call('GET', '/sandbox/payment/test_webhook', { token: shop.key });
    expect([answer.status, answer.body.error.code]).toEqual([502, 'webhook_delivery_failed']);
    expect(answer.body.error.message).toContain('500');
  });

  it('answers 409 webhook_not_configured when the environment has no checkout webhook URL', async () => {
    const shop = await checkoutShop(call);
    const answer = await call('GET', '/sandbox/payment/test_webhook', { token: shop.key });
    expect([answer.status, answer.body.error.code]).toEqual([409, 'webhook_not_configured']);
  });
});
