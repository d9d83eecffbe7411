import type { SqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { SQL_CLIENT } from '@payouts/platform';
import { testBackends } from '@payouts/testing';
import { countEvents } from '../../../libs/event-store/src/testing/stored-events';
import { client, Gateway, startGateway } from '../api/gateway-harness';
import type { Call } from '../api/gateway-harness';
import { CHECKOUT_PATHS, checkoutShop, Shop } from './checkout-harness';

/**
 * The create body's `amount` over real HTTP, sent as raw JSON text so that the server sees the
 * number as the merchant wrote it (JSON.stringify would turn 10.500 into 10.5): at most two
 * decimals as written, no exponent, never rounded.
 */
describe.each(testBackends().map((b) => b.name))(
  'checkout amounts as written, over HTTP on %s',
  (backend) => {
    let gateway: Gateway;
    let call: Call;
    let sandbox: Shop;
    let production: Shop;

    beforeAll(async () => {
      gateway = await startGateway(backend, { PUBLIC_BASE_URL: 'https://pay.example.com' });
      call = client(gateway.url);
      sandbox = await checkoutShop(call);
      production = await checkoutShop(call, { environment: 'production' });
    });
    afterAll(() => gateway.close());

    const bodyWith = (amountText: string) =>
      `{"amount":${amountText},"currency":"USD","customer":"payer@example.com","product":"Blue mug"}`;
    const create = (amountText: string, path = '/sandbox/card', shop = sandbox) =>
      call('POST', path, { token: shop.key, rawBody: bodyWith(amountText) });

    const countOrders = async () => {
      const db = gateway.app.get<SqlClient>(SQL_CLIENT);
      const orders = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM checkout_orders');
      const events = await countEvents(new PostgresEventStore(db), (e) => e.streamType === 'order');
      return orders.rows[0]!.n + events;
    };

    it.each([
      ['10.049999999999999999', 'which JSON.parse reads as 10.05'],
      ['0.4999999999999999999', 'which JSON.parse reads as 0.5'],
      ['10.500', 'trailing zeros count as written'],
      ['10.555', 'three decimals'],
      ['1e2', 'an exponent'],
      ['1E+2', 'an exponent'],
      ['1.5e1', 'an exponent'],
      ['1e21', 'an exponent'],
      ['-5', 'a negative number'],
      ['-0', 'minus zero'],
      ['"10.50"', 'a string'],
      ['0', 'zero'],
      ['0.49', 'under the minimum'],
      ['100000.01', 'over the maximum'],
    ])('refuses %s (%s) with 400 invalid_amount on amount, creating nothing', async (amountText) => {
      const before = await countOrders();
      const answer = await create(amountText);
      expect([answer.status, answer.body]).toEqual([
        400,
        { error: { code: 'invalid_amount', message: expect.any(String), param: 'amount' } },
      ]);
      expect(await countOrders()).toBe(before);
    });

    it.each([
      ['010', 'a leading zero'],
      ['+10', 'a plus sign'],
      ['.5', 'no digit before the point'],
      ['10.', 'no digit after the point'],
      ['1e', 'an exponent without digits'],
      ['NaN', 'not a number'],
      ['Infinity', 'not a number'],
    ])(
      'refuses %s (%s), which is not JSON, with 400 invalid_request, creating nothing',
      async (amountText) => {
        const before = await countOrders();
        const answer = await create(amountText);
        expect([answer.status, answer.body.error.code]).toEqual([400, 'invalid_request']);
        expect(await countOrders()).toBe(before);
      },
    );

    it.each([
      ['10.5', '10.50'],
      ['10.50', '10.50'],
      ['10', '10.00'],
      ['10.0', '10.00'],
      ['100000', '100000.00'],
      ['0.5', '0.50'],
      [' 0.50 ', '0.50'],
    ])('accepts %s and answers the amount as %s', async (amountText, amount) => {
      const answer = await create(amountText);
      expect([answer.status, answer.body.amount]).toEqual([200, amount]);
      const status = await call('GET', `/sandbox/payment/status?payment_id=${answer.body.order_id}`, {
        token: sandbox.key,
      });
      expect(status.body.data.Amount).toBe(Number(amount));
    });

    it.each([
      ...CHECKOUT_PATHS.map((path) => [path, 'sandbox'] as const),
      ...CHECKOUT_PATHS.map((path) => [path.replace('/sandbox', ''), 'production'] as const),
    ])('%s (%s) refuses 10.500 and 1e2, and accepts 10.50', async (path, environment) => {
      const shop = environment === 'sandbox' ? sandbox : production;
      for (const amountText of ['10.500', '1e2']) {
        const refused = await create(amountText, path, shop);
        expect([amountText, refused.status, refused.body.error?.code]).toEqual([
          amountText,
          400,
          'invalid_amount',
        ]);
      }
      const created = await create('10.50', path, shop);
      expect([created.status, created.body.amount]).toEqual([200, '10.50']);
    });
  },
);
