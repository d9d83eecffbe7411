import { parseSignatureHeader, verifyPayoutWebhook, WebhookSignatureError } from '@payouts/webhooks';
import { eventually, ReceivedWebhook, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { payExistingPayout } from '../../../libs/webhooks/src/testing/paid-payouts';
import { merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { merchantWithPayout, startWebhookGateway, WebhookGateway } from './webhook-harness';

const ROOT = '/dashboard/payout-webhook';
const DAY_SECONDS = 86_400;

/**
 * The dashboard API's secret rotation and one-click enable (docs/webhooks.md), in the embedded
 * start: real HTTP to the gateway and to a receiver, the in-process dispatcher, the sandbox clock
 * moved through the operator API.
 */
describe('payout webhook secret rotation and disabled endpoints in the embedded start', () => {
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

  const moveSandboxClock = async (seconds: number) => {
    const moved = await gateway.call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: seconds },
    });
    expect(moved.status).toBe(200);
  };
  /** Sends a payout.test and waits for its one attempt to be recorded. */
  const sendTest = async (token: string): Promise<ReceivedWebhook> => {
    const before = receiver.received.length;
    const sent = await gateway.call('POST', `${ROOT}/test`, { token, body: { environment: 'sandbox' } });
    expect(sent.status).toBe(202);
    await receiver.waitForRequests(before + 1);
    await eventually(async () => {
      const event = await gateway.call('GET', `${ROOT}/events/${sent.body.event_id}`, { token });
      return event.body.deliveries[0].status === 'pending' ? undefined : true;
    });
    return receiver.received[before]!;
  };
  const verdict = (request: ReceivedWebhook, secret: string) => {
    try {
      verifyPayoutWebhook(request.rawBody, request.signature, secret);
      return 'verified';
    } catch (error) {
      return (error as WebhookSignatureError).reason;
    }
  };

  it('refuses both routes without the admin token, with a bad environment, and without an endpoint', async () => {
    const shop = await merchant(gateway.call);
    for (const path of [`${ROOT}/rotate-secret`, `${ROOT}/enable`]) {
      const anonymous = await gateway.call('POST', path, { body: { environment: 'sandbox' } });
      expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'unauthenticated']);
      const operator = await gateway.call('POST', path, {
        token: OPERATOR_TOKEN,
        body: { environment: 'sandbox' },
      });
      expect(operator.status).toBe(401);
      const moon = await gateway.call('POST', path, {
        token: shop.adminToken,
        body: { environment: 'moon' },
      });
      expect([moon.status, moon.body.error.code, moon.body.error.param]).toEqual([
        400,
        'invalid_request',
        'environment',
      ]);
      const none = await gateway.call('POST', path, {
        token: shop.adminToken,
        body: { environment: 'sandbox' },
      });
      expect([none.status, none.body.error.code]).toEqual([409, 'no_webhook_endpoint']);
    }
  });

  it('rotates the secret: both sign for 24 hours of the sandbox clock, then only the new one', async () => {
    const shop = await merchant(gateway.call);
    const token = shop.adminToken;
    const saved = await gateway.call('PUT', ROOT, {
      token,
      body: { environment: 'sandbox', url: receiver.url() },
    });
    const rotated = await gateway.call('POST', `${ROOT}/rotate-secret`, {
      token,
      body: { environment: 'sandbox' },
    });
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body).sort()).toEqual(
      ['environment', 'previous_secret_expires_at', 'secret', 'secret_rotated_at'].sort(),
    );
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).toBe(
      Date.parse(rotated.body.secret_rotated_at) + DAY_SECONDS * 1000,
    );
    const shown = await gateway.call('GET', `${ROOT}?environment=sandbox`, { token });
    expect(shown.body).toMatchObject({
      url: receiver.url(),
      created_at: saved.body.created_at,
      secret_rotated_at: rotated.body.secret_rotated_at,
      previous_secret_expires_at: rotated.body.previous_secret_expires_at,
      disabled_at: null,
    });
    expect(JSON.stringify(shown.body)).not.toContain('whsec_');

    const during = await sendTest(token);
    expect(parseSignatureHeader(during.signature).signatures).toHaveLength(2);
    expect(verdict(during, saved.body.secret)).toBe('verified');
    expect(verdict(during, rotated.body.secret)).toBe('verified');

    // A paid payout during the overlap too.
    const paid = await merchantWithPayout(gateway.call, 'order-rotation');
    const paidSaved = await gateway.call('PUT', ROOT, {
      token: paid.adminToken,
      body: { environment: 'sandbox', url: receiver.url() },
    });
    const paidRotated = await gateway.call('POST', `${ROOT}/rotate-secret`, {
      token: paid.adminToken,
      body: { environment: 'sandbox' },
    });
    const before = receiver.received.length;
    await payExistingPayout(gateway.store, paid.payoutId);
    await receiver.waitForRequests(before + 1);
    const payoutRequest = receiver.received[before]!;
    expect(JSON.parse(payoutRequest.rawBody).type).toBe('payout.updated');
    expect(verdict(payoutRequest, paidSaved.body.secret)).toBe('verified');
    expect(verdict(payoutRequest, paidRotated.body.secret)).toBe('verified');

    await moveSandboxClock(DAY_SECONDS);
    const after = await sendTest(token);
    expect(parseSignatureHeader(after.signature).signatures).toHaveLength(1);
    expect(verdict(after, rotated.body.secret)).toBe('verified');
    expect(verdict(after, saved.body.secret)).toBe('signature_mismatch');
    const later = await gateway.call('GET', `${ROOT}?environment=sandbox`, { token });
    expect(later.body.previous_secret_expires_at).toBeNull();
  });

  it('disables an endpoint after 5 days of failures, shows why, holds deliveries, and enables in one click', async () => {
    const shop = await merchantWithPayout(gateway.call, 'order-disabled');
    const token = shop.adminToken;
    await gateway.call('PUT', ROOT, { token, body: { environment: 'sandbox', url: receiver.url() } });
    receiver.answer = () => ({ status: 503, body: 'maintenance' });
    await sendTest(token);
    const failing = await gateway.call('GET', `${ROOT}?environment=sandbox`, { token });
    expect(failing.body.failing_since).not.toBeNull();
    expect(failing.body.disabled_at).toBeNull();

    await moveSandboxClock(5 * DAY_SECONDS + 1);
    await sendTest(token);
    const disabled = await gateway.call('GET', `${ROOT}?environment=sandbox`, { token });
    expect(disabled.status).toBe(200);
    expect(disabled.body.disabled_at).not.toBeNull();
    expect(disabled.body.failing_since).toBe(failing.body.failing_since);
    expect(disabled.body.disabled_reason).toMatch(/every attempt failed for 5 days/);
    expect(disabled.body.disabled_reason).toContain('HTTP 503');

    // The payout is paid while the endpoint is disabled: its delivery waits, pending.
    const before = receiver.received.length;
    await payExistingPayout(gateway.store, shop.payoutId);
    const held = await eventually(async () => {
      const log = await gateway.call('GET', `${ROOT}/events?environment=sandbox&payout_id=${shop.payoutId}`, {
        token,
      });
      return log.body.data[0]?.deliveries[0];
    });
    await moveSandboxClock(3_600);
    gateway.dispatcher.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(before);
    expect(held).toMatchObject({ status: 'pending', attempts_made: 0 });

    receiver.answer = () => ({ status: 200, body: 'ok' });
    const enabled = await gateway.call('POST', `${ROOT}/enable`, { token, body: { environment: 'sandbox' } });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({
      environment: 'sandbox',
      url: receiver.url(),
      disabled_at: null,
      disabled_reason: null,
      failing_since: null,
      rescheduled_deliveries: 1,
    });
    await receiver.waitForRequests(before + 1);
    expect(JSON.parse(receiver.received[before]!.rawBody).data.payout_id).toBe(shop.payoutId);
    await eventually(async () => {
      const log = await gateway.call('GET', `${ROOT}/events?environment=sandbox&payout_id=${shop.payoutId}`, {
        token,
      });
      return log.body.data[0].deliveries[0].status === 'delivered' ? true : undefined;
    });
    const again = await gateway.call('POST', `${ROOT}/enable`, { token, body: { environment: 'sandbox' } });
    expect([again.status, again.body.rescheduled_deliveries]).toEqual([200, 0]);
  });
});
