import { randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { SecretBox } from '@payouts/accounts';
import { ForwardProxy, startForwardProxy, testBackends } from '@payouts/testing';
import { verifyCheckoutWebhook } from './checkout/checkout-verify';
import { sendCheckoutTestWebhook } from './checkout/test-webhook';
import { DeliveryScheduler } from './dispatcher/delivery-scheduler';
import { payoutUpdatedEventId } from './payout-webhook-event';
import { DeliveryQueue } from './store/delivery-queue';
import { WebhookEndpoints } from './store/webhook-endpoints';
import { WebhookEvents } from './store/webhook-events';
import { ResolveHost, systemResolver } from './target-policy';
import { useCheckoutHarness } from './testing/checkout-harness';
import { appendPaidPayouts } from './testing/paid-payouts';
import { eventually, TestReceiver } from './testing/receiver';
import { verifyPayoutWebhook } from './verify';

/** What the proxy must be asked for: the address, IPv6 in brackets. */
const authority = (address: string, port: number) => `${isIPv6(address) ? `[${address}]` : address}:${port}`;

describe.each(testBackends())(
  'payout and checkout webhooks through the forward proxy on $name',
  (backend) => {
    const h = useCheckoutHarness(backend);
    const box = new SecretBox(randomBytes(32));
    let endpoints: WebhookEndpoints;
    let events: WebhookEvents;
    /** Where the system resolves `localhost` first: the receivers listen there, the proxy is asked for it. */
    let localhost: string;
    const schedulers: DeliveryScheduler[] = [];
    const closers: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      endpoints = new WebhookEndpoints(h.database.db, box);
      events = new WebhookEvents(h.database.db);
      localhost = (await systemResolver('localhost'))[0]!.address;
    });
    afterEach(async () => {
      await Promise.all(schedulers.splice(0).map((s) => s.stop()));
      await Promise.all(closers.splice(0).map((close) => close()));
    });

    const receiver = async () => {
      const started = await TestReceiver.start(localhost);
      closers.push(() => started.close());
      return started;
    };
    const proxy = async (options?: Parameters<typeof startForwardProxy>[0]) => {
      const started = await startForwardProxy(options);
      closers.push(() => started.close());
      return started;
    };
    /** A dispatcher's scheduler as the app builds it from WEBHOOK_PROXY_URL. */
    const scheduler = (forward: ForwardProxy, options: { allowInsecure: boolean; resolve?: ResolveHost }) => {
      const started = new DeliveryScheduler(
        new DeliveryQueue(h.database.db),
        { now: (environment) => h.clock.now(environment) },
        (endpointId, ciphertext) => box.decrypt(ciphertext, endpointId),
        {
          pollMs: 20,
          maxInFlight: 10,
          policy: { allowInsecure: options.allowInsecure },
          timeoutMs: 2_000,
          resolve: options.resolve,
          proxyUrl: new URL(forward.url),
          checkoutSecret: (credentialId) => h.accounts.checkoutSecret(credentialId),
        },
      );
      started.start();
      schedulers.push(started);
      return started;
    };
    const payoutAccount = async (url: string) => {
      const { accountId } = await h.accounts.createAccount({ name: 'Shop', region: 'US' });
      const { secret } = await endpoints.save(accountId, 'sandbox', url, h.clock.now('sandbox'));
      const [payoutId] = await appendPaidPayouts(h.store, accountId, 'sandbox', 1);
      return { accountId, secret, eventId: payoutUpdatedEventId(payoutId!) };
    };
    const payoutDelivery = async (accountId: string, eventId: string) =>
      (await events.get(accountId, eventId))?.deliveries[0];

    it('delivers a payout webhook through the proxy, which is asked for the checked address of the name', async () => {
      const hook = await receiver();
      const forward = await proxy();
      const { accountId, secret, eventId } = await payoutAccount(
        `http://localhost:${hook.port}/hooks/payouts`,
      );
      await h.relay();
      scheduler(forward, { allowInsecure: true });
      await hook.waitForRequests(1);

      expect(forward.connects).toEqual([authority(localhost, hook.port)]);
      const [request] = hook.received;
      expect(request!.path).toBe('/hooks/payouts');
      expect(request!.headers.host).toBe(`localhost:${hook.port}`);
      expect(verifyPayoutWebhook(request!.rawBody, request!.signature, secret)).toBeDefined();
      const delivery = await eventually(async () => {
        const found = await payoutDelivery(accountId, eventId);
        return found?.status === 'delivered' ? found : undefined;
      });
      expect(delivery.attempts.map((a) => [a.statusCode, a.error])).toEqual([[200, null]]);
    });

    it("delivers a paid order's checkout webhook through the same proxy, signed as always", async () => {
      const hook = await receiver();
      const forward = await proxy();
      const { accountId, credentialId, secret } = await h.merchant('production');
      const orderId = await h.order({
        accountId,
        environment: 'production',
        credentialId,
        amount: '10.50',
        product: 'Mug',
        hookUrl: `http://localhost:${hook.port}/hooks/shop`,
      });
      await h.relay();
      scheduler(forward, { allowInsecure: true });
      await hook.waitForRequests(1);

      expect(forward.connects).toEqual([authority(localhost, hook.port)]);
      const [request] = hook.received;
      expect(request!.rawBody).toBe(
        `{"order_id":${orderId},"status":"SUCCESS","amount":10.5,"product":"Mug"}`,
      );
      expect(
        verifyCheckoutWebhook(request!.rawBody, String(request!.headers['x-service-signature']), secret),
      ).toBe(true);
      await eventually(async () =>
        (await h.deliveryOf(orderId))[0]?.status === 'delivered' ? true : undefined,
      );
    });

    it('sends the checkout test webhook through the proxy too', async () => {
      const hook = await receiver();
      const forward = await proxy();
      const secret = 'cks_dGVzdCB3ZWJob29rIHRocm91Z2ggdGhlIHByb3h5';
      const sent = await sendCheckoutTestWebhook(`http://localhost:${hook.port}/hooks/test`, secret, {
        policy: { allowInsecure: true },
        proxyUrl: new URL(forward.url),
      });
      expect(sent).toMatchObject({ delivered: true });
      expect(forward.connects).toEqual([authority(localhost, hook.port)]);
      const [request] = hook.received;
      expect(
        verifyCheckoutWebhook(request!.rawBody, String(request!.headers['x-service-signature']), secret),
      ).toBe(true);
    });

    it('refuses loopback and private targets before anything is sent to the proxy', async () => {
      const hook = await receiver();
      const forward = await proxy();
      // Only this name resolves to a private address; every other goes to the system resolver.
      const resolve: ResolveHost = (name) =>
        name === 'hooks.merchant.test'
          ? Promise.resolve([{ address: '10.20.30.40', family: 4 }])
          : systemResolver(name);
      const payout = await payoutAccount(`https://localhost:${hook.port}/hooks`);
      const { accountId, credentialId } = await h.merchant('sandbox');
      const orderUrls = ['https://hooks.merchant.test/shop', 'https://169.254.169.254/latest/meta-data'];
      const orders = [];
      for (const hookUrl of orderUrls) {
        orders.push(
          await h.order({
            accountId,
            environment: 'sandbox',
            credentialId,
            amount: '1.00',
            product: '',
            hookUrl,
          }),
        );
      }
      await h.relay();
      scheduler(forward, { allowInsecure: false, resolve });

      const delivery = await eventually(async () => {
        const found = await payoutDelivery(payout.accountId, payout.eventId);
        return found?.attemptsMade === 1 ? found : undefined;
      });
      expect(delivery.attempts[0]!.error).toBe(
        'target refused (blocked_address): localhost does not resolve to a public address',
      );
      const refused = [];
      for (const orderId of orders) {
        refused.push(
          await eventually(async () => {
            const [attempt] = await h.attemptsOf(orderId);
            return attempt ? attempt.error : undefined;
          }),
        );
      }
      expect(refused).toEqual([
        'target refused (blocked_address): hooks.merchant.test does not resolve to a public address',
        'target refused (blocked_address): 169.254.169.254 is not a public address: 169.254.0.0/16 (link-local)',
      ]);
      expect(forward.connects).toEqual([]);
      expect(hook.connections).toBe(0);
      await endpoints.remove(payout.accountId, 'sandbox', h.clock.now('sandbox'));
    });

    it('records a CONNECT the proxy refuses as a failed attempt and retries it on the schedule', async () => {
      const hook = await receiver();
      const forward = await proxy({ refuse: () => true });
      const payout = await payoutAccount(`http://localhost:${hook.port}/hooks`);
      const { accountId, credentialId } = await h.merchant('sandbox');
      const orderId = await h.order({
        accountId,
        environment: 'sandbox',
        credentialId,
        amount: '2.00',
        product: '',
        hookUrl: `http://localhost:${hook.port}/shop`,
      });
      await h.relay();
      const running = scheduler(forward, { allowInsecure: true });

      const first = await eventually(async () => {
        const found = await payoutDelivery(payout.accountId, payout.eventId);
        return found?.attemptsMade === 1 ? found : undefined;
      });
      expect(first).toMatchObject({ status: 'pending', nextAttemptAt: expect.any(String) });
      expect(first.attempts.map((a) => [a.statusCode, a.delivered, a.error])).toEqual([
        [null, false, 'proxy refused CONNECT: 403'],
      ]);
      const [order] = await eventually(async () => {
        const rows = await h.deliveryOf(orderId);
        return rows[0]?.attempts_made === 1 ? rows : undefined;
      });
      expect(order).toMatchObject({ status: 'pending', next_attempt_at: expect.any(Date) });
      expect((await h.attemptsOf(orderId)).map((a) => a.error)).toEqual(['proxy refused CONNECT: 403']);
      expect(forward.connects).toEqual([authority(localhost, hook.port), authority(localhost, hook.port)]);

      // The second attempts (payout after 30 s, checkout after 1 min) go to the proxy again.
      h.clock.offsetMs += 61_000;
      running.wake();
      await eventually(async () => ((await h.attemptsOf(orderId)).length === 2 ? true : undefined));
      await eventually(async () =>
        (await payoutDelivery(payout.accountId, payout.eventId))?.attemptsMade === 2 ? true : undefined,
      );
      expect(forward.connects).toHaveLength(4);
      expect(hook.connections).toBe(0);
      await endpoints.remove(payout.accountId, 'sandbox', h.clock.now('sandbox'));
    });
  },
);
