import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyPayoutWebhook } from '@payouts/webhooks';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { payExistingPayout } from '../../../libs/webhooks/src/testing/paid-payouts';
import { merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { merchantWithPayout, startWebhookGateway, WebhookGateway } from './webhook-harness';

/**
 * Payout webhooks in the embedded start (`npm start`: no Kafka, the in-process transport): the
 * dashboard's endpoint settings, a paid payout delivered once and signed, the delivery log, the
 * test event, resend, retries on the sandbox clock, and stop sending.
 */
describe('payout webhooks in the embedded start', () => {
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

  const saveEndpoint = async (adminToken: string, url = receiver.url()) => {
    const saved = await gateway.call('PUT', '/dashboard/payout-webhook', {
      token: adminToken,
      body: { environment: 'sandbox', url },
    });
    expect(saved.status).toBe(200);
    return saved.body as { environment: string; url: string; secret: string; created_at: string };
  };
  const log = (adminToken: string, query: string) =>
    gateway.call('GET', `/dashboard/payout-webhook/events?environment=sandbox&${query}`, {
      token: adminToken,
    });

  it('delivers one signed payout.updated when a payout is paid, with Get Payout’s values, and logs it', async () => {
    const shop = await merchantWithPayout(gateway.call, 'order-wh-1');
    const saved = await saveEndpoint(shop.adminToken);
    expect(saved).toMatchObject({ environment: 'sandbox', url: receiver.url() });
    expect(saved.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    await payExistingPayout(gateway.store, shop.payoutId);
    await receiver.waitForRequests(1);
    const [request] = receiver.received;
    verifyPayoutWebhook(request!.rawBody, request!.signature, saved.secret);
    const body = JSON.parse(request!.rawBody);
    expect(body.type).toBe('payout.updated');
    expect(body.id).toMatch(/^evt_[0-9a-f]{32}$/);

    const got = await gateway.call('GET', `/sandbox/api/payout/${shop.payoutId}`, { token: shop.token });
    expect(got.body.status).toBe('paid');
    const fields = Object.keys(body.data);
    expect(body.data).toEqual(Object.fromEntries(fields.map((field) => [field, got.body[field]])));
    expect(fields).toHaveLength(14);

    const entries = await eventually(async () => {
      const answer = await log(shop.adminToken, `payout_id=${shop.payoutId}`);
      return answer.body.data[0]?.deliveries[0]?.status === 'delivered' ? answer : undefined;
    });
    expect(entries.status).toBe(200);
    expect(entries.body).toMatchObject({ total: 1, limit: 20, offset: 0 });
    const [event] = entries.body.data;
    expect(event).toMatchObject({ event_id: body.id, type: 'payout.updated', payout_id: shop.payoutId });
    expect(event.body).toBe(request!.rawBody);
    expect(event.deliveries[0]).toMatchObject({ trigger: 'automatic', attempts_made: 1, max_attempts: 5 });
    expect(event.deliveries[0].attempts[0]).toMatchObject({
      attempt_number: 1,
      url: receiver.url(),
      status_code: 200,
      delivered: true,
      error: null,
      response_body: 'ok',
    });
    expect(event.deliveries[0].attempts[0].latency_ms).toBeGreaterThanOrEqual(0);
    const one = await gateway.call('GET', `/dashboard/payout-webhook/events/${body.id}`, {
      token: shop.adminToken,
    });
    expect(one.body).toEqual(event);

    // Resend: the same body and id, signed again.
    const resent = await gateway.call('POST', `/dashboard/payout-webhook/events/${body.id}/resend`, {
      token: shop.adminToken,
    });
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ event_id: body.id, status: 'pending' });
    await receiver.waitForRequests(2);
    expect(receiver.received[1]!.rawBody).toBe(request!.rawBody);
    verifyPayoutWebhook(receiver.received[1]!.rawBody, receiver.received[1]!.signature, saved.secret);
    // Still one event for the payout.
    expect((await log(shop.adminToken, `payout_id=${shop.payoutId}`)).body.total).toBe(1);
  });

  it('sends a payout.test event on demand, with no payout behind it', async () => {
    const shop = await merchant(gateway.call);
    const saved = await saveEndpoint(shop.adminToken);
    const sent = await gateway.call('POST', '/dashboard/payout-webhook/test', {
      token: shop.adminToken,
      body: { environment: 'sandbox' },
    });
    expect(sent.status).toBe(202);
    expect(sent.body.event_id).toMatch(/^evt_test_[0-9a-f]{32}$/);
    await receiver.waitForRequests(1);
    const body = JSON.parse(receiver.received[0]!.rawBody);
    expect(body).toMatchObject({
      type: 'payout.test',
      id: sent.body.event_id,
      data: { environment: 'sandbox' },
    });
    expect(body.data.payout_id).toBeUndefined();
    verifyPayoutWebhook(receiver.received[0]!.rawBody, receiver.received[0]!.signature, saved.secret);
    const all = await eventually(async () => {
      const answer = await log(shop.adminToken, '');
      return answer.body.data[0]?.deliveries[0]?.status === 'delivered' ? answer : undefined;
    });
    expect(all.body.data[0]).toMatchObject({ type: 'payout.test', payout_id: null });
    expect(all.body.data[0].deliveries[0]).toMatchObject({ trigger: 'test', max_attempts: 1 });
  });

  it('retries a receiver that answers 500 when the sandbox clock reaches the next attempt, re-signed', async () => {
    const shop = await merchantWithPayout(gateway.call, 'order-wh-retry');
    const saved = await saveEndpoint(shop.adminToken);
    let calls = 0;
    receiver.answer = () => (++calls === 1 ? { status: 500, body: 'try later' } : { status: 200 });
    await payExistingPayout(gateway.store, shop.payoutId);
    await receiver.waitForRequests(1);
    const pending = await eventually(async () => {
      const d = (await log(shop.adminToken, `payout_id=${shop.payoutId}`)).body.data[0]?.deliveries[0];
      return d?.attempts_made === 1 ? d : undefined;
    });
    expect(pending).toMatchObject({ status: 'pending' });
    expect(pending.attempts[0]).toMatchObject({
      status_code: 500,
      delivered: false,
      response_body: 'try later',
    });
    expect(
      Date.parse(pending.next_attempt_at) - Date.parse(pending.attempts[0].attempted_at),
    ).toBeGreaterThanOrEqual(30_000);
    // A new second for the signature's t, then the sandbox moves 30 s on.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const moved = await gateway.call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: 30 },
    });
    expect(moved.status).toBe(200);
    await receiver.waitForRequests(2);
    const [first, second] = receiver.received;
    expect(second!.rawBody).toBe(first!.rawBody);
    const t1 = verifyPayoutWebhook(first!.rawBody, first!.signature, saved.secret).timestamp;
    const t2 = verifyPayoutWebhook(second!.rawBody, second!.signature, saved.secret).timestamp;
    expect(t2).toBeGreaterThan(t1);
    expect(second!.signature).not.toBe(first!.signature);
    const delivered = await eventually(async () => {
      const d = (await log(shop.adminToken, `payout_id=${shop.payoutId}`)).body.data[0]?.deliveries[0];
      return d?.status === 'delivered' ? d : undefined;
    });
    expect(delivered.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
  });

  it('stops sending: removes the endpoint and its secret and drops what was pending', async () => {
    const shop = await merchantWithPayout(gateway.call, 'order-wh-stop');
    await saveEndpoint(shop.adminToken);
    receiver.answer = () => ({ status: 503 });
    await payExistingPayout(gateway.store, shop.payoutId);
    await receiver.waitForRequests(1);
    await eventually(async () => {
      const d = (await log(shop.adminToken, `payout_id=${shop.payoutId}`)).body.data[0]?.deliveries[0];
      return d?.attempts_made === 1 ? d : undefined;
    });
    const removed = await gateway.call('DELETE', '/dashboard/payout-webhook?environment=sandbox', {
      token: shop.adminToken,
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ environment: 'sandbox', removed: true, dropped_deliveries: 1 });
    expect(
      (await gateway.call('GET', '/dashboard/payout-webhook?environment=sandbox', { token: shop.adminToken }))
        .status,
    ).toBe(404);
    const { rows } = await gateway.db.query('SELECT 1 FROM payout_webhook_endpoints WHERE account_id = $1', [
      shop.accountId,
    ]);
    expect(rows).toEqual([]);
    await gateway.call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: 3_600 },
    });
    gateway.dispatcher.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(1);
    const d = (await log(shop.adminToken, `payout_id=${shop.payoutId}`)).body.data[0].deliveries[0];
    expect(d).toMatchObject({ status: 'cancelled', next_attempt_at: null });
    // Without an endpoint, a test event and a resend are refused.
    const test = await gateway.call('POST', '/dashboard/payout-webhook/test', {
      token: shop.adminToken,
      body: { environment: 'sandbox' },
    });
    expect(test.status).toBe(409);
    expect(test.body.error.code).toBe('no_webhook_endpoint');
    const eventId = (await log(shop.adminToken, `payout_id=${shop.payoutId}`)).body.data[0].event_id;
    const resend = await gateway.call('POST', `/dashboard/payout-webhook/events/${eventId}/resend`, {
      token: shop.adminToken,
    });
    expect(resend.status).toBe(409);
    expect(resend.body.error.code).toBe('no_webhook_endpoint');
    // Removing again is harmless.
    expect(
      (
        await gateway.call('DELETE', '/dashboard/payout-webhook?environment=sandbox', {
          token: shop.adminToken,
        })
      ).body,
    ).toEqual({ environment: 'sandbox', removed: false, dropped_deliveries: 0 });
  });

  it('never follows a redirect: a 3xx is a failed attempt and the Location is never called', async () => {
    let elsewhere = 0;
    const other: Server = createServer((_req, res) => {
      elsewhere += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const shop = await merchantWithPayout(gateway.call, 'order-wh-redirect');
      await saveEndpoint(shop.adminToken);
      const location = `http://127.0.0.1:${(other.address() as AddressInfo).port}/moved`;
      receiver.answer = () => ({ status: 302, headers: { location } });
      await payExistingPayout(gateway.store, shop.payoutId);
      const d = await eventually(async () => {
        const delivery = (await log(shop.adminToken, `payout_id=${shop.payoutId}`)).body.data[0]
          ?.deliveries[0];
        return delivery?.attempts_made === 1 ? delivery : undefined;
      });
      expect(d.status).toBe('pending');
      expect(d.attempts[0]).toMatchObject({
        status_code: 302,
        delivered: false,
        error: 'HTTP 302: redirects are not followed',
      });
      expect(elsewhere).toBe(0);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('refuses a second resend while the first is still waiting (409 resend_in_progress)', async () => {
    const shop = await merchant(gateway.call);
    await saveEndpoint(shop.adminToken);
    const sent = await gateway.call('POST', '/dashboard/payout-webhook/test', {
      token: shop.adminToken,
      body: { environment: 'sandbox' },
    });
    await receiver.waitForRequests(1);
    // The receiver now takes a second to answer: the first resend is still on the wire.
    receiver.answer = () => ({ status: 200, delayMs: 1_000 });
    const path = `/dashboard/payout-webhook/events/${sent.body.event_id}/resend`;
    expect((await gateway.call('POST', path, { token: shop.adminToken })).status).toBe(202);
    await receiver.waitForRequests(2);
    const again = await gateway.call('POST', path, { token: shop.adminToken });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('resend_in_progress');
    await eventually(async () => {
      const event = await gateway.call('GET', `/dashboard/payout-webhook/events/${sent.body.event_id}`, {
        token: shop.adminToken,
      });
      return event.body.deliveries.every((d: { status: string }) => d.status === 'delivered')
        ? true
        : undefined;
    });
    expect((await gateway.call('POST', path, { token: shop.adminToken })).status).toBe(202);
  });

  it('keeps each account’s log to itself', async () => {
    const shop = await merchant(gateway.call);
    await saveEndpoint(shop.adminToken);
    const sent = await gateway.call('POST', '/dashboard/payout-webhook/test', {
      token: shop.adminToken,
      body: { environment: 'sandbox' },
    });
    const stranger = await merchant(gateway.call);
    const seen = await gateway.call('GET', `/dashboard/payout-webhook/events/${sent.body.event_id}`, {
      token: stranger.adminToken,
    });
    expect(seen.status).toBe(404);
    const resent = await gateway.call(
      'POST',
      `/dashboard/payout-webhook/events/${sent.body.event_id}/resend`,
      {
        token: stranger.adminToken,
      },
    );
    expect(resent.status).toBe(404);
    expect((await log(stranger.adminToken, '')).body).toMatchObject({ total: 0, data: [] });
    expect(
      (
        await gateway.call('GET', '/dashboard/payout-webhook/events?environment=production', {
          token: shop.adminToken,
        })
      ).body.total,
    ).toBe(0);
  });
});

describe('payout webhook settings refused (insecure targets off, the default)', () => {
  let gateway: WebhookGateway;
  let adminToken: string;

  beforeAll(async () => {
    gateway = await startWebhookGateway();
    adminToken = (await merchant(gateway.call)).adminToken;
  });
  afterAll(async () => gateway?.close());

  const put = (body: unknown, token = adminToken) =>
    gateway.call('PUT', '/dashboard/payout-webhook', { token, body });

  it.each([
    ['http, even to a public address', 'http://93.184.216.34/hook', 'the URL must use https'],
    ['loopback', 'https://127.0.0.1/hook', '127.0.0.1 is not a public address: 127.0.0.0/8 (loopback)'],
    ['loopback as a decimal number', 'https://2130706433/hook', '127.0.0.0/8 (loopback)'],
    ['loopback in hex', 'https://0x7f000001/hook', '127.0.0.0/8 (loopback)'],
    ['localhost', 'https://localhost/hook', 'localhost does not resolve to a public address'],
    ['IPv6 loopback', 'https://[::1]/hook', '::1/128 (loopback)'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', 'IPv4-mapped of 127.0.0.1'],
    ['a private address', 'https://10.0.0.1/hook', '10.0.0.0/8 (private)'],
    ['the metadata address', 'https://169.254.169.254/latest', '169.254.0.0/16 (link-local)'],
    ['CGNAT', 'https://100.64.0.1/hook', 'CGNAT'],
    [
      'a user and password',
      'https://user:secret@93.184.216.34/hook',
      'must not contain a user name or password',
    ],
    [
      'a name that does not resolve',
      'https://does-not-exist.invalid/hook',
      'does-not-exist.invalid does not resolve to a public address',
    ],
    ['not a URL', 'hooks.example.com', 'not a valid absolute URL'],
  ])('refuses %s with 400', async (_case, url, message) => {
    const answer = await put({ environment: 'sandbox', url });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_request', param: 'url' });
    expect(answer.body.error.message).toContain(message);
  });

  it('never tells the dashboard what a name resolved to', async () => {
    const answer = await put({ environment: 'sandbox', url: 'https://localhost/hook' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('localhost does not resolve to a public address');
    expect(answer.body.error.message).not.toMatch(/127\.0\.0\.1|::1|loopback/);
  });

  it.each([
    ['no url', { environment: 'sandbox' }, 'url'],
    ['a number for url', { environment: 'sandbox', url: 5 }, 'url'],
    ['an unknown environment', { environment: 'staging', url: 'https://93.184.216.34/' }, 'environment'],
    ['an unknown field', { environment: 'sandbox', url: 'https://93.184.216.34/', secret: 'x' }, 'secret'],
  ])('refuses %s with 400', async (_case, body, param) => {
    const answer = await put(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_request', param });
  });

  it('saves a public https URL, shows the secret once, and never again', async () => {
    const first = await put({ environment: 'production', url: 'https://93.184.216.34/hooks/payouts' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      environment: 'production',
      url: 'https://93.184.216.34/hooks/payouts',
      secret: expect.stringMatching(/^whsec_/),
      created_at: expect.any(String),
    });
    const shown = await gateway.call('GET', '/dashboard/payout-webhook?environment=production', {
      token: adminToken,
    });
    expect(shown.body).toEqual({
      environment: 'production',
      url: 'https://93.184.216.34/hooks/payouts',
      created_at: first.body.created_at,
      secret_rotated_at: null,
      previous_secret_expires_at: null,
      failing_since: null,
      disabled_at: null,
      disabled_reason: null,
    });
    // Stored encrypted: the secret is nowhere in the table.
    const { rows } = await gateway.db.query<{ secret_ciphertext: string }>(
      'SELECT secret_ciphertext FROM payout_webhook_endpoints WHERE url = $1',
      ['https://93.184.216.34/hooks/payouts'],
    );
    expect(rows[0]!.secret_ciphertext).not.toContain(first.body.secret.slice(6));
    // Saving again gives a new secret.
    const second = await put({ environment: 'production', url: 'https://93.184.216.34/hooks/payouts' });
    expect(second.body.secret).not.toBe(first.body.secret);
    // The sandbox is separate.
    expect(
      (await gateway.call('GET', '/dashboard/payout-webhook?environment=sandbox', { token: adminToken }))
        .status,
    ).toBe(404);
  });

  it.each([
    ['PUT', '/dashboard/payout-webhook', { environment: 'sandbox', url: 'https://93.184.216.34/' }],
    ['GET', '/dashboard/payout-webhook?environment=sandbox', undefined],
    ['DELETE', '/dashboard/payout-webhook?environment=sandbox', undefined],
    ['POST', '/dashboard/payout-webhook/test', { environment: 'sandbox' }],
    ['GET', '/dashboard/payout-webhook/events?environment=sandbox', undefined],
    ['GET', '/dashboard/payout-webhook/events/evt_test_00000000', undefined],
    ['POST', '/dashboard/payout-webhook/events/evt_test_00000000/resend', undefined],
  ])('answers 401 to %s %s without an admin token', async (method, path, body) => {
    for (const token of [undefined, 'adm_unknown', 'pk_test_not_an_admin']) {
      const answer = await gateway.call(method, path, { token, body });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('unauthenticated');
    }
  });

  it.each([
    ['GET', '/dashboard/payout-webhook', 'environment'],
    ['DELETE', '/dashboard/payout-webhook?environment=prod', 'environment'],
    ['GET', '/dashboard/payout-webhook/events?environment=sandbox&limit=0', 'limit'],
    ['GET', '/dashboard/payout-webhook/events?environment=sandbox&limit=101', 'limit'],
    ['GET', '/dashboard/payout-webhook/events?environment=sandbox&offset=-1', 'offset'],
    ['GET', '/dashboard/payout-webhook/events?environment=sandbox&status=paid', 'status'],
  ])('refuses %s %s with 400 naming %s', async (method, path, param) => {
    const answer = await gateway.call(method, path, { token: adminToken });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_request', param });
  });

  it('answers 404 for an event that does not exist and 409 for a test without an endpoint', async () => {
    const missing = await gateway.call('GET', '/dashboard/payout-webhook/events/evt_0000000000000000', {
      token: adminToken,
    });
    expect(missing.status).toBe(404);
    const resend = await gateway.call(
      'POST',
      '/dashboard/payout-webhook/events/evt_0000000000000000/resend',
      {
        token: adminToken,
      },
    );
    expect(resend.status).toBe(404);
    const test = await gateway.call('POST', '/dashboard/payout-webhook/test', {
      token: adminToken,
      body: { environment: 'sandbox' },
    });
    expect(test.status).toBe(409);
    expect(test.body.error.code).toBe('no_webhook_endpoint');
  });
});

describe('the delivery schedule across a restart of the embedded start', () => {
  it('keeps a pending retry through a restart on the same data folder and makes it when due', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payouts-webhook-restart-'));
    const env = {
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    };
    const receiver = await TestReceiver.start();
    receiver.answer = () => ({ status: 500 });
    let gateway = await startWebhookGateway({ env });
    try {
      const shop = await merchantWithPayout(gateway.call, 'order-wh-restart');
      const saved = await gateway.call('PUT', '/dashboard/payout-webhook', {
        token: shop.adminToken,
        body: { environment: 'sandbox', url: receiver.url() },
      });
      await payExistingPayout(gateway.store, shop.payoutId);
      await receiver.waitForRequests(1);
      const log = () =>
        gateway.call(
          'GET',
          `/dashboard/payout-webhook/events?environment=sandbox&payout_id=${shop.payoutId}`,
          {
            token: shop.adminToken,
          },
        );
      await eventually(async () =>
        (await log()).body.data[0]?.deliveries[0]?.attempts_made === 1 ? 1 : undefined,
      );
      await gateway.close();

      receiver.answer = () => ({ status: 200 });
      gateway = await startWebhookGateway({ env });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).toHaveLength(1); // not due yet
      await gateway.call('POST', '/operator/sandbox/clock', {
        token: OPERATOR_TOKEN,
        body: { advance_seconds: 31 },
      });
      await receiver.waitForRequests(2);
      verifyPayoutWebhook(receiver.received[1]!.rawBody, receiver.received[1]!.signature, saved.body.secret);
      const delivery = await eventually(async () => {
        const d = (await log()).body.data[0]?.deliveries[0];
        return d?.status === 'delivered' ? d : undefined;
      });
      expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
    } finally {
      await gateway.close();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
