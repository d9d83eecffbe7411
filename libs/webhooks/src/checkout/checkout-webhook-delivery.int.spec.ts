import { createHmac } from 'node:crypto';
import { testBackends } from '@payouts/testing';
import { useCheckoutHarness } from '../testing/checkout-harness';
import { payCreatedOrder } from '../testing/paid-orders';
import { eventually } from '../testing/receiver';
import { verifyCheckoutWebhook } from './checkout-verify';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testBackends())('checkout webhook delivery on $name', (backend) => {
  const h = useCheckoutHarness(backend);

  it("posts a paid order's exact body to its hook_url, signed with its credential's API secret", async () => {
    const hook = await h.receiver();
    const { accountId, credentialId, secret } = await h.merchant('production');
    const order = {
      accountId,
      environment: 'production' as const,
      credentialId,
      amount: '10.50',
      product: 'Blue "mug"',
      hookUrl: hook.url('/hooks/shop'),
    };
    const orderId = await h.order(order);
    await h.relay();
    h.scheduler();
    await hook.waitForRequests(1);

    const [request] = hook.received;
    expect(request!.path).toBe('/hooks/shop');
    expect(request!.rawBody).toBe(
      `{"order_id":${orderId},"status":"SUCCESS","amount":10.5,"product":"Blue \\"mug\\""}`,
    );
    expect(request!.headers['content-type']).toBe('application/json');
    // An independent check, as a merchant would write it, and the exported verifier.
    const header = request!.headers['x-service-signature'];
    expect(header).toBe(createHmac('sha256', secret).update(request!.rawBody).digest('hex'));
    expect(verifyCheckoutWebhook(request!.rawBody, String(header), secret)).toBe(true);
    expect(request!.headers['x-service-payout-signature']).toBeUndefined();

    await eventually(async () =>
      (await h.deliveryOf(orderId))[0]?.status === 'delivered' ? true : undefined,
    );
    expect(await h.deliveryOf(orderId)).toEqual([
      { status: 'delivered', attempts_made: 1, max_attempts: 4, next_attempt_at: null },
    ]);
    expect(await h.attemptsOf(orderId)).toEqual([
      {
        attempt_number: 1,
        endpoint_id: null,
        url: hook.url('/hooks/shop'),
        status_code: 200,
        delivered: true,
        error: null,
        signature_timestamp: null,
      },
    ]);
  });

  it('retries a receiver answering 500 after 1, 4 and 16 minutes on the sandbox clock with the same body, then stops', async () => {
    const hook = await h.receiver();
    hook.answer = () => ({ status: 500, body: 'down' });
    const { accountId, credentialId, secret } = await h.merchant('sandbox');
    const orderId = await h.order({
      accountId,
      environment: 'sandbox',
      credentialId,
      amount: '100000.00',
      product: '',
      hookUrl: hook.url(),
    });
    await h.relay();
    const running = h.scheduler();
    await hook.waitForRequests(1);

    for (const [index, seconds] of [60, 240, 960].entries()) {
      const made = index + 1;
      await eventually(async () =>
        (await h.deliveryOf(orderId))[0]?.attempts_made === made ? true : undefined,
      );
      // One second short of the delay: not due yet, however often the scheduler looks.
      h.clock.offsetMs += (seconds - 1) * 1000;
      running.wake();
      await pause(150);
      expect(hook.received).toHaveLength(made);
      h.clock.offsetMs += 1000;
      running.wake();
      await hook.waitForRequests(made + 1);
    }
    await eventually(async () => ((await h.deliveryOf(orderId))[0]?.status === 'failed' ? true : undefined));
    expect(await h.deliveryOf(orderId)).toEqual([
      { status: 'failed', attempts_made: 4, max_attempts: 4, next_attempt_at: null },
    ]);
    expect((await h.attemptsOf(orderId)).map((a) => [a.attempt_number, a.status_code, a.error])).toEqual(
      [1, 2, 3, 4].map((n) => [n, 500, 'HTTP 500: not a 2xx answer']),
    );
    // Every attempt: the byte-identical body and the same valid signature.
    const body = `{"order_id":${orderId},"status":"SUCCESS","amount":100000,"product":""}`;
    expect(hook.received.map((r) => r.rawBody)).toEqual([body, body, body, body]);
    const signatures = hook.received.map((r) => String(r.headers['x-service-signature']));
    expect(new Set(signatures).size).toBe(1);
    expect(verifyCheckoutWebhook(body, signatures[0]!, secret)).toBe(true);
    // After the fourth, nothing more, however far the clock moves.
    h.clock.offsetMs += 100 * 3_600_000;
    running.wake();
    await pause(150);
    expect(hook.received).toHaveLength(4);
  });

  it('logs a failed attempt with the reason when the credential has no API secret, and sends nothing', async () => {
    const hook = await h.receiver();
    const { accountId } = await h.merchant('production');
    const orderId = await h.order({
      accountId,
      environment: 'production',
      credentialId: 'cred_000000000000000000000000',
      amount: '1.00',
      product: '',
      hookUrl: hook.url(),
    });
    await h.relay();
    h.scheduler();
    const [attempt] = await eventually(async () => {
      const attempts = await h.attemptsOf(orderId);
      return attempts.length > 0 ? attempts : undefined;
    });
    expect(attempt).toMatchObject({
      attempt_number: 1,
      status_code: null,
      delivered: false,
      error:
        'not sent: checkout credential cred_000000000000000000000000 has no API secret (unknown, or its secret was erased)',
    });
    // Retried on the schedule like any failed attempt.
    expect((await h.deliveryOf(orderId))[0]).toMatchObject({ status: 'pending', attempts_made: 1 });
    expect(hook.received).toHaveLength(0);
  });

  it('signs with the secret of a revoked credential: the orders it created are still owed their webhook', async () => {
    const hook = await h.receiver();
    const { accountId, credentialId, secret } = await h.merchant('production');
    const order = {
      accountId,
      environment: 'production' as const,
      credentialId,
      amount: '5.00',
      product: '',
    };
    const orderId = await h.order({ ...order, hookUrl: hook.url() }, { pay: false });
    await h.accounts.revokeCredential(accountId, credentialId);
    await payCreatedOrder(h.store, orderId);
    await h.relay();
    h.scheduler();
    await hook.waitForRequests(1);
    const [request] = hook.received;
    const header = String(request!.headers['x-service-signature']);
    expect(verifyCheckoutWebhook(request!.rawBody, header, secret)).toBe(true);
  });

  it('checks the target again at delivery time and makes no connection to a blocked one', async () => {
    const hook = await h.receiver();
    const { accountId, credentialId } = await h.merchant('production');
    const orderId = await h.order({
      accountId,
      environment: 'production',
      credentialId,
      amount: '1.00',
      product: '',
      // As if the URL had passed when it was set and the address had changed since.
      hookUrl: `http://10.0.0.1:${hook.port}/hook`,
    });
    await h.relay();
    h.scheduler();
    const [attempt] = await eventually(async () => {
      const attempts = await h.attemptsOf(orderId);
      return attempts.length > 0 ? attempts : undefined;
    });
    expect(attempt).toMatchObject({
      status_code: null,
      delivered: false,
      error: 'target refused (blocked_address): 10.0.0.1 is not a public address: 10.0.0.0/8 (private)',
    });
    expect(hook.connections).toBe(0);
  });
});
