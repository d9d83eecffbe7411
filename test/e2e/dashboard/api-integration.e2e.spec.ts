import { parseSignatureHeader, verifyPayoutWebhook } from '@payouts/webhooks';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { payExistingPayout } from '../../../libs/webhooks/src/testing/paid-payouts';
import { linkBody, merchant, Merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startWebhookGateway, WebhookGateway } from '../webhooks/webhook-harness';
import { PageAnswer, PageBrowser } from './page-browser';

const PAGE = '/dashboard/settings/api-integration';
const API = '/dashboard/payout-webhook';
const DAY_SECONDS = 86_400;

/** The page's text without tags, spaces collapsed: what a person reads. */
const text = (page: PageAnswer) =>
  page.body
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const secretOn = (page: PageAnswer) =>
  /id="copy-secret" type="text" readonly value="(whsec_[^"]+)"/.exec(page.body)?.[1];
const isSignIn = (page: PageAnswer) => page.status === 303 && page.headers.location === '/dashboard';

/**
 * Settings → API integration over real HTTP (docs/dashboard.md#api-integration): the embedded
 * start with its in-process dispatcher delivering to a real HTTP receiver on loopback
 * (WEBHOOK_ALLOW_INSECURE_TARGETS allows http and loopback, nothing else), the sandbox clock moved
 * through the operator API for the 5 days that disable an endpoint.
 */
describe('dashboard API integration page (real HTTP, in-process dispatcher, real receiver)', () => {
  let gateway: WebhookGateway;
  let receiver: TestReceiver;
  let shop: Merchant;
  let browser: PageBrowser;

  beforeAll(async () => {
    [gateway, receiver] = await Promise.all([
      startWebhookGateway({ env: { WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' } }),
      TestReceiver.start(),
    ]);
    shop = await merchant(gateway.call, '1000.00', { name: 'Corner Shop' });
    browser = new PageBrowser(gateway.url);
    const signedIn = await browser.submit('/dashboard', '/dashboard/sign-in', {
      admin_token: shop.adminToken,
    });
    expect(signedIn.status).toBe(303);
  });
  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
  });

  /** The endpoint as the JSON API sees it (404 when none). */
  const endpointState = (environment: 'production' | 'sandbox', token = shop.adminToken) =>
    gateway.call('GET', `${API}?environment=${environment}`, { token });
  const eventCount = async (environment: 'production' | 'sandbox', token = shop.adminToken) =>
    (await gateway.call('GET', `${API}/events?environment=${environment}`, { token })).body.total as number;
  /** Waits until the event's every delivery has finished (delivered or failed). */
  const settled = (eventId: string) =>
    eventually(async () => {
      const event = await gateway.call('GET', `${API}/events/${eventId}`, { token: shop.adminToken });
      return event.body.deliveries.every((d: { status: string }) => d.status !== 'pending')
        ? event.body
        : undefined;
    });
  const newestEventId = async (environment: 'production' | 'sandbox') =>
    (
      await gateway.call('GET', `${API}/events?environment=${environment}&limit=1`, {
        token: shop.adminToken,
      })
    ).body.data[0].event_id as string;
  const moveSandboxClock = async (seconds: number) => {
    const moved = await gateway.call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: seconds },
    });
    expect(moved.status).toBe(200);
  };

  it('sends someone not signed in to sign in, for every page and form', async () => {
    const stranger = new PageBrowser(gateway.url);
    expect(isSignIn(await stranger.get(PAGE))).toBe(true);
    expect(isSignIn(await stranger.get(`${PAGE}/events/evt_test_0`))).toBe(true);
    const token = PageBrowser.csrfToken(await stranger.get('/dashboard'));
    for (const action of ['url', 'test', 'stop', 'rotate-secret', 'enable', 'events/evt_test_0/resend']) {
      expect(isSignIn(await stranger.post(`${PAGE}/${action}`, { _csrf: token, url: receiver.url() }))).toBe(
        true,
      );
    }
    expect((await endpointState('production')).status).toBe(404);
  });

  it('shows the empty page: not sending, no events, the URL form', async () => {
    const page = await browser.get(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>API integration · Payouts</title>');
    expect(page.body).toContain(
      '<a href="/dashboard/settings/api-integration" aria-current="page">API integration</a>',
    );
    expect(text(page)).toContain('Not sending: no webhook URL is set');
    expect(text(page)).toContain('No events yet');
    expect(page.body).toContain('<label for="field-url">Webhook URL</label>');
    expect(page.body).not.toContain('Send test event</button>');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it.each([
    ['Send test event', 'test'],
    ['Rotate secret', 'rotate-secret'],
    ['Re-enable', 'enable'],
  ])('refuses %s without an endpoint (409) and changes nothing', async (_name, action) => {
    const answer = await browser.submit(PAGE, `${PAGE}/${action}`, {});
    expect(answer.status).toBe(409);
    expect(answer.body).toContain('role="alert"');
    expect(text(answer)).toContain('No webhook URL is set for this environment: nothing was done.');
    expect(secretOn(answer)).toBeUndefined();
    expect((await endpointState('production')).status).toBe(404);
    expect(await eventCount('production')).toBe(0);
  });

  it('stopping without an endpoint says so and changes nothing', async () => {
    const answer = await browser.submit(PAGE, `${PAGE}/stop`, {});
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`${PAGE}?notice=not_set`);
    expect(text(await browser.get(answer.headers.location as string))).toContain(
      'No webhook URL was set for this environment: nothing changed.',
    );
    expect((await endpointState('production')).status).toBe(404);
  });

  it.each([
    ['not a URL', 'hooks.example.com', 'The URL is not a valid absolute URL.'],
    ['a private address', 'https://10.0.0.1/hook', '10.0.0.1 is not a public address: 10.0.0.0/8 (private)'],
    ['the metadata address', 'http://169.254.169.254/latest', '169.254.0.0/16 (link-local)'],
    ['a user and password', 'https://user:pw@93.184.216.34/hook', 'must not contain a user name or password'],
    ['nothing', '', 'The URL must be 1 to 2048 characters.'],
  ])(
    'refuses saving %s (400) with the API’s reason at the field, saving nothing',
    async (_case, url, reason) => {
      const answer = await browser.submit(PAGE, `${PAGE}/url`, { url });
      expect(answer.status).toBe(400);
      expect(text(answer)).toContain('The webhook URL was not saved: nothing changed.');
      expect(answer.body).toMatch(/<p class="error" id="field-url-error">[^<]*<\/p>/);
      expect(/<p class="error" id="field-url-error">([^<]*)<\/p>/.exec(answer.body)![1]).toContain(reason);
      expect(answer.body).toContain('aria-invalid="true"');
      // The URL as sent, to correct it.
      expect(answer.body).toContain(url ? `value="${url}"` : 'name="url" type="url" value required');
      expect(secretOn(answer)).toBeUndefined();
      expect((await endpointState('production')).status).toBe(404);
    },
  );

  let productionSecret: string;

  it('saves the URL and shows the signing secret once; the page never shows it again', async () => {
    const answer = await browser.submit(PAGE, `${PAGE}/url`, { url: receiver.url() });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    productionSecret = secretOn(answer)!;
    expect(productionSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(text(answer)).toContain('Webhook URL saved.');
    expect(text(answer)).toContain('it is shown this once and never again');
    expect(answer.body).toContain('<label for="copy-secret">Signing secret</label>');
    const api = await endpointState('production');
    expect(api.body).toMatchObject({ url: receiver.url(), disabled_at: null });

    const later = await browser.get(PAGE);
    expect(later.body).not.toContain(productionSecret);
    expect(later.body).not.toContain('whsec_');
    expect(text(later)).toContain(`URL ${receiver.url()}`);
    expect(text(later)).toContain('State Sending');
    expect(text(later)).toContain('Change the URL');
    expect(later.body).toContain('Send test event</button>');
  });

  it('sends a test event, signed with the secret, and logs its attempt: time, status code, latency, error', async () => {
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: 'ok' });
    const answer = await browser.submit(PAGE, `${PAGE}/test`, {});
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`${PAGE}?notice=test_sent`);
    await receiver.waitForRequests(1);
    const [request] = receiver.received;
    verifyPayoutWebhook(request!.rawBody, request!.signature, productionSecret);
    const eventId = JSON.parse(request!.rawBody).id as string;
    expect(eventId).toMatch(/^evt_test_/);
    const logged = await settled(eventId);

    const page = await browser.get(answer.headers.location as string);
    expect(page.status).toBe(200);
    expect(text(page)).toContain('Test event queued');
    expect(text(page)).toContain('Showing 1–1 of 1 events');
    expect(page.body).toContain(
      `<a href="${PAGE}/events/${eventId}" class="api-integration-id">${eventId}</a>`,
    );
    const row = text(page).slice(text(page).indexOf(eventId));
    expect(row).toMatch(/payout\.test .+ Delivered .+ 200 \d+ ms —/);

    const eventPage = await browser.get(`${PAGE}/events/${eventId}`);
    expect(eventPage.status).toBe(200);
    expect(eventPage.body).toContain('<h1>Webhook event</h1>');
    const words = text(eventPage);
    expect(words).toContain('Payout None (a test event)');
    expect(words).toContain('Delivery 1 (test event): Delivered');
    const attempt = logged.deliveries[0].attempts[0];
    expect(words).toMatch(
      new RegExp(`1 \\d{1,2} \\w{3} \\d{4}, [\\d:]{8} UTC 200 ${attempt.latency_ms} ms Delivered —`),
    );
    expect(eventPage.body).toContain(`datetime="${new Date(attempt.attempted_at).toISOString()}"`);
    // The body sent, escaped.
    expect(eventPage.body).toContain(
      request!.rawBody.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').slice(0, 20),
    );
  });

  it('logs a failed attempt with its status code and error, and says the endpoint is failing', async () => {
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 500, body: 'down' });
    await browser.submit(PAGE, `${PAGE}/test`, {});
    await receiver.waitForRequests(1);
    const eventId = JSON.parse(receiver.received[0]!.rawBody).id as string;
    const logged = await settled(eventId);
    const attempt = logged.deliveries[0].attempts[0];
    expect(attempt.error).toMatch(/500/);
    const page = await browser.get(PAGE);
    const row = text(page).slice(text(page).indexOf(eventId));
    expect(row).toContain(`Failed`);
    expect(row).toContain(`500 ${attempt.latency_ms} ms ${attempt.error}`);
    expect(text(page)).toMatch(
      /Attempts to this URL have failed since .+ After 5 days of failures it is disabled automatically/,
    );
    const eventPage = text(await browser.get(`${PAGE}/events/${eventId}`));
    expect(eventPage).toContain('Delivery 1 (test event): Failed');
    expect(eventPage).toContain(`500 ${attempt.latency_ms} ms Failed ${attempt.error}`);
    receiver.answer = () => ({ status: 200, body: 'ok' });
  });

  it('resends an event from its page (same body and id), and refuses a second while the first waits', async () => {
    receiver.received.length = 0;
    const eventId = await newestEventId('production');
    const before = (await gateway.call('GET', `${API}/events/${eventId}`, { token: shop.adminToken })).body;
    // The receiver takes a second to answer: the first resend is still on the wire.
    receiver.answer = () => ({ status: 200, body: 'ok', delayMs: 1_000 });
    const answer = await browser.submit(`${PAGE}/events/${eventId}`, `${PAGE}/events/${eventId}/resend`, {});
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`${PAGE}/events/${eventId}?notice=resent`);
    await receiver.waitForRequests(1);
    expect(receiver.received[0]!.rawBody).toBe(before.body);
    verifyPayoutWebhook(receiver.received[0]!.rawBody, receiver.received[0]!.signature, productionSecret);

    const again = await browser.submit(PAGE, `${PAGE}/events/${eventId}/resend`, {});
    expect(again.status).toBe(409);
    expect(again.body).toContain('<h1>Webhook event</h1>');
    expect(text(again)).toContain('A resend of this event is still waiting to be sent: nothing was added.');
    const during = (await gateway.call('GET', `${API}/events/${eventId}`, { token: shop.adminToken })).body;
    expect(during.deliveries).toHaveLength(before.deliveries.length + 1);

    await settled(eventId);
    receiver.answer = () => ({ status: 200, body: 'ok' });
    const page = text(await browser.get(answer.headers.location as string));
    expect(page).toContain('Resend queued');
    expect(page).toContain('Delivery 2 (resend): Delivered');
    expect(receiver.received).toHaveLength(1);
  });

  it('refuses to resend an unknown event, another account’s or a malformed id (404), sending nothing', async () => {
    const stranger = await merchant(gateway.call, '0.00', { name: 'Other Shop' });
    await gateway.call('PUT', API, {
      token: stranger.adminToken,
      body: { environment: 'production', url: receiver.url() },
    });
    const arrived = receiver.received.length;
    const theirs = await gateway.call('POST', `${API}/test`, {
      token: stranger.adminToken,
      body: { environment: 'production' },
    });
    await receiver.waitForRequests(arrived + 1);
    const theirEventId = theirs.body.event_id as string;
    await eventually(async () => {
      const event = await gateway.call('GET', `${API}/events/${theirEventId}`, {
        token: stranger.adminToken,
      });
      return event.body.deliveries[0].status === 'delivered' ? true : undefined;
    });
    const sent = receiver.received.length;
    const eventsBefore = await eventCount('production');
    for (const eventId of [`evt_${'0'.repeat(32)}`, theirEventId, 'evt_NOT-an-id']) {
      const answer = await browser.submit(PAGE, `${PAGE}/events/${eventId}/resend`, {});
      expect(answer.status).toBe(404);
      expect(text(answer)).toContain(
        'There is no such event in this environment’s delivery log: nothing was sent.',
      );
      expect((await browser.get(`${PAGE}/events/${eventId}`)).status).toBe(404);
    }
    const theirs2 = (
      await gateway.call('GET', `${API}/events/${theirEventId}`, { token: stranger.adminToken })
    ).body;
    expect(theirs2.deliveries).toHaveLength(1);
    expect(await eventCount('production')).toBe(eventsBefore);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(sent);
  });

  it('rotates the secret: the new one shown once, both sign until the overlap ends, shown on the page', async () => {
    receiver.received.length = 0;
    const answer = await browser.submit(PAGE, `${PAGE}/rotate-secret`, {});
    expect(answer.status).toBe(200);
    const rotated = secretOn(answer)!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(productionSecret);
    expect(text(answer)).toContain('Your new signing secret');
    expect(text(answer)).toMatch(/Until .+, every delivery is signed with both the old and the new secret/);
    const api = (await endpointState('production')).body;
    expect(answer.body).toContain(`datetime="${new Date(api.previous_secret_expires_at).toISOString()}"`);

    const page = await browser.get(PAGE);
    expect(page.body).not.toContain('whsec_');
    expect(text(page)).toMatch(/Old secret also signs until \d/);

    await browser.submit(PAGE, `${PAGE}/test`, {});
    await receiver.waitForRequests(1);
    const [request] = receiver.received;
    expect(parseSignatureHeader(request!.signature).signatures).toHaveLength(2);
    verifyPayoutWebhook(request!.rawBody, request!.signature, rotated);
    verifyPayoutWebhook(request!.rawBody, request!.signature, productionSecret);
    await settled(JSON.parse(request!.rawBody).id);
  });

  it('pages the delivery log with its total', async () => {
    const total = await eventCount('production');
    const arrived = receiver.received.length;
    for (let i = total; i < 21; i += 1) {
      const sent = await gateway.call('POST', `${API}/test`, {
        token: shop.adminToken,
        body: { environment: 'production' },
      });
      expect(sent.status).toBe(202);
    }
    const first = await browser.get(PAGE);
    expect(text(first)).toContain('Showing 1–20 of 21 events');
    expect(first.body).toContain(`<a href="${PAGE}?offset=20">Next page</a>`);
    expect(first.body.match(/<tr>/g)).toHaveLength(21);
    const second = await browser.get(`${PAGE}?offset=20`);
    expect(text(second)).toContain('Showing 21–21 of 21 events');
    expect(second.body).toContain(`<a href="${PAGE}">Previous page</a>`);
    const beyond = await browser.get(`${PAGE}?offset=500`);
    expect(beyond.status).toBe(200);
    expect(text(beyond)).toContain('There are no events on this page.');
    // Every one delivered before the next test counts what the receiver gets.
    await receiver.waitForRequests(arrived + 21 - total);
    await settled(await newestEventId('production'));
  });

  it('shows the sandbox’s own endpoint and log after the environment switch, and disables it after 5 days of failures', async () => {
    const switched = await browser.submit(PAGE, '/dashboard/environment', {
      environment: 'sandbox',
      return_to: PAGE,
    });
    expect(switched.headers.location).toBe(PAGE);
    const empty = await browser.get(PAGE);
    expect(text(empty)).toContain('Not sending: no webhook URL is set');
    expect(text(empty)).toContain('No events yet');
    expect(empty.body).not.toContain(receiver.url());

    const saved = await browser.submit(PAGE, `${PAGE}/url`, { url: receiver.url('/sandbox') });
    expect(saved.status).toBe(200);
    expect(secretOn(saved)).not.toBe(productionSecret);
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 503, body: 'maintenance' });
    await browser.submit(PAGE, `${PAGE}/test`, {});
    await receiver.waitForRequests(1);
    await settled(JSON.parse(receiver.received[0]!.rawBody).id);
    await moveSandboxClock(5 * DAY_SECONDS + 1);
    await browser.submit(PAGE, `${PAGE}/test`, {});
    await receiver.waitForRequests(2);
    await settled(JSON.parse(receiver.received[1]!.rawBody).id);
    expect((await endpointState('sandbox')).body.disabled_at).not.toBeNull();

    // A payout paid while disabled: its delivery waits.
    const created = await gateway.call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('order-api-integration'),
    });
    expect(created.status).toBe(201);
    await payExistingPayout(gateway.store, created.body.payout_id);
    const held = await eventually(async () => {
      const log = await gateway.call(
        'GET',
        `${API}/events?environment=sandbox&payout_id=${created.body.payout_id}`,
        {
          token: shop.adminToken,
        },
      );
      return log.body.data[0];
    });

    const disabled = await browser.get(PAGE);
    const words = text(disabled);
    expect(words).toContain('Deliveries to this URL are paused');
    expect(words).toMatch(/Paused since .+ UTC ?\. Disabled automatically: every attempt failed for 5 days/);
    expect(words).toContain('HTTP 503');
    expect(words).toContain('State Disabled automatically (deliveries paused)');
    expect(disabled.body).toContain('Re-enable</button>');
    expect(words).toContain('Showing 1–3 of 3 events');
    expect(words).not.toContain('Showing 1–20 of 21');
    const heldRow = words.slice(words.indexOf(held.event_id));
    expect(heldRow).toMatch(/^evt_\w+ payout\.updated .+ Waiting None yet/);

    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: 'ok' });
    const enabled = await browser.submit(PAGE, `${PAGE}/enable`, {});
    expect(enabled.status).toBe(303);
    expect(enabled.headers.location).toBe(`${PAGE}?notice=enabled`);
    await receiver.waitForRequests(1);
    expect(JSON.parse(receiver.received[0]!.rawBody).data.payout_id).toBe(created.body.payout_id);
    await settled(held.event_id);
    const after = text(await browser.get(enabled.headers.location as string));
    expect(after).toContain('Endpoint enabled again');
    expect(after).toContain('State Sending');
    expect(after).not.toContain('Deliveries to this URL are paused');
    const payoutEvent = text(await browser.get(`${PAGE}/events/${held.event_id}`));
    expect(payoutEvent).toContain(`Payout ${created.body.payout_id}`);
    expect(payoutEvent).toContain('Delivery 1 (automatic): Delivered');

    const again = await browser.submit(PAGE, `${PAGE}/enable`, {});
    expect(again.headers.location).toBe(`${PAGE}?notice=not_disabled`);
    // The production event is not on the sandbox's pages.
    const productionEvent = await newestEventId('production');
    expect((await browser.get(`${PAGE}/events/${productionEvent}`)).status).toBe(404);
  });

  it('stops sending: the URL and secret removed, the log kept; the production endpoint untouched', async () => {
    const answer = await browser.submit(PAGE, `${PAGE}/stop`, {});
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`${PAGE}?notice=stopped`);
    const page = text(await browser.get(answer.headers.location as string));
    expect(page).toContain('Stopped sending: the webhook URL and its signing secret were removed');
    expect(page).toContain('Not sending: no webhook URL is set');
    expect(page).toContain('Showing 1–3 of 3 events');
    expect((await endpointState('sandbox')).status).toBe(404);
    expect((await endpointState('production')).status).toBe(200);
    // Resending now is refused: no endpoint.
    const eventId = await newestEventId('sandbox');
    const resend = await browser.submit(PAGE, `${PAGE}/events/${eventId}/resend`, {});
    expect(resend.status).toBe(409);
    expect(text(resend)).toContain('No webhook URL is set for this environment: nothing was done.');
    const event = (await gateway.call('GET', `${API}/events/${eventId}`, { token: shop.adminToken })).body;
    expect(event.deliveries.every((d: { trigger: string }) => d.trigger !== 'manual')).toBe(true);
  });
});
