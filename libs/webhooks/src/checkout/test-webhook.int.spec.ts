import { createHmac } from 'node:crypto';
import { TestReceiver } from '../testing/receiver';
import { verifyCheckoutWebhook } from './checkout-verify';
import { sendCheckoutTestWebhook } from './test-webhook';

const SECRET = 'cks_Y2hlY2tvdXQgd2ViaG9vayB0ZXN0IHZlY3RvciBrZXk';
const BODY = '{"order_id":0,"status":"SUCCESS","amount":1,"product":"Test webhook"}';
const insecure = { policy: { allowInsecure: true } };

describe('the checkout test webhook, against a real HTTP receiver', () => {
  let receiver: TestReceiver;
  beforeEach(async () => {
    receiver = await TestReceiver.start();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('posts the test body once, signed with the secret, and reports it delivered on a 2xx', async () => {
    receiver.answer = () => ({ status: 204 });
    const result = await sendCheckoutTestWebhook(receiver.url('/hooks/test'), SECRET, insecure);
    expect(result).toEqual({ delivered: true, body: BODY });
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.rawBody).toBe(BODY);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-service-signature']).toBe(
      createHmac('sha256', SECRET).update(BODY).digest('hex'),
    );
    expect(
      verifyCheckoutWebhook(request!.rawBody, String(request!.headers['x-service-signature']), SECRET),
    ).toBe(true);
  });

  it.each([
    [500, 'HTTP 500: not a 2xx answer'],
    [302, 'HTTP 302: redirects are not followed'],
    [404, 'HTTP 404: not a 2xx answer'],
  ])('reports a %s answer with its status, in one attempt', async (status, reason) => {
    receiver.answer = () => ({ status, headers: { location: receiver.url('/elsewhere') } });
    expect(await sendCheckoutTestWebhook(receiver.url(), SECRET, insecure)).toEqual({
      delivered: false,
      status,
      reason,
    });
    expect(receiver.received.map((r) => r.path)).toEqual(['/webhooks/payouts']);
  });

  it('applies the target policy: without insecure targets, http and loopback are refused unsent', async () => {
    expect(
      await sendCheckoutTestWebhook(receiver.url(), SECRET, { policy: { allowInsecure: false } }),
    ).toEqual({ delivered: false, reason: 'target refused (insecure_scheme): the URL must use https' });
    expect(
      await sendCheckoutTestWebhook(`https://127.0.0.1:${receiver.port}/`, SECRET, {
        policy: { allowInsecure: false },
      }),
    ).toMatchObject({
      delivered: false,
      reason: expect.stringMatching(/^target refused \(blocked_address\)/),
    });
    expect(receiver.connections).toBe(0);
  });

  it('reports a receiver that does not answer in time, and one that refuses the connection', async () => {
    receiver.answer = () => 'never';
    expect(await sendCheckoutTestWebhook(receiver.url(), SECRET, { ...insecure, timeoutMs: 200 })).toEqual({
      delivered: false,
      reason: 'timeout: no complete answer within 0.2 s',
    });
    const closed = await TestReceiver.start();
    const url = closed.url();
    await closed.close();
    expect(await sendCheckoutTestWebhook(url, SECRET, insecure)).toEqual({
      delivered: false,
      reason: 'connection refused',
    });
  });
});
