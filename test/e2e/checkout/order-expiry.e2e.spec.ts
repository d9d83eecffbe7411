import { CommandBus } from '@nestjs/cqrs';
import { PayOrderCommand, SANDBOX_CARDS } from '@payouts/checkout';
import { testBackends } from '@payouts/testing';
import { client, Gateway, OPERATOR_TOKEN, startGateway } from '../api/gateway-harness';
import type { Call } from '../api/gateway-harness';
import { checkoutShop, orderBody, Shop } from './checkout-harness';

/** Polls the order's status until `wanted` or a few seconds have passed. */
async function statusOf(call: Call, shop: Shop, orderId: number, wanted?: string): Promise<string> {
  for (let i = 0; ; i += 1) {
    const answer = await call('GET', `/sandbox/payment/status?payment_id=${orderId}`, { token: shop.key });
    if (wanted === undefined || answer.body.status === wanted || i >= 100)
      return answer.body.status as string;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(testBackends().map((b) => b.name))('order expiry by the worker on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;

  beforeAll(async () => {
    gateway = await startGateway(backend, { WORKER_POLL_MS: '25' });
    call = client(gateway.url);
  });
  afterAll(() => gateway.close());

  it('expires an unpaid order 24 hours after creation on the sandbox clock, and never a paid one', async () => {
    const shop = await checkoutShop(call);
    const unpaid = (await call('POST', '/sandbox/payment/cash', { token: shop.key, body: orderBody() })).body
      .order_id;
    const paid = (await call('POST', '/sandbox/card', { token: shop.key, body: orderBody() })).body.order_id;
    const result = await gateway.app.get(CommandBus).execute(
      new PayOrderCommand(paid, {
        kind: 'card',
        number: SANDBOX_CARDS.paid,
        expiryMonth: 12,
        expiryYear: 2099,
        securityCode: '123',
        name: 'A Payer',
      }),
    );
    expect(result.paid).toBe(true);

    // Just short of 24 hours: nothing expires yet.
    await call('POST', '/operator/sandbox/clock', {
      token: OPERATOR_TOKEN,
      body: { advance_seconds: 86_390 },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await statusOf(call, shop, unpaid)).toBe('PENDING');

    await call('POST', '/operator/sandbox/clock', { token: OPERATOR_TOKEN, body: { advance_seconds: 20 } });
    expect(await statusOf(call, shop, unpaid, 'EXPIRED')).toBe('EXPIRED');
    expect(await statusOf(call, shop, paid)).toBe('SUCCESS');
    const order = (await call('GET', `/sandbox/payment/status?payment_id=${unpaid}`, { token: shop.key }))
      .body.data;
    expect(order).toMatchObject({ status: 'EXPIRED', paid_at: null });

    // An expired order cannot be paid any more.
    await expect(
      gateway.app
        .get(CommandBus)
        .execute(new PayOrderCommand(unpaid, { kind: 'wallet', account: 'payer-wallet' })),
    ).rejects.toMatchObject({ code: 'order_not_payable' });
  });
});
