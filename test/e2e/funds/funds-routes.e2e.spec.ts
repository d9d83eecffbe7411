import { createServerDatabase, testBackends } from '@payouts/testing';
import { merchant, Merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startWorkerGateway, Storage, WorkerGateway } from '../worker/worker-harness';
import { ledgerEventsOf, ledgerOf, payingShop } from './funds-harness';

const operator = { token: OPERATOR_TOKEN };

describe.each(testBackends().map((b) => b.name))('the funds-flow routes on %s', (backend) => {
  let gateway: WorkerGateway;
  let drop: () => Promise<void> = async () => undefined;
  let shop: Merchant;

  beforeAll(async () => {
    let storage: Storage = { dataDir: ':memory:' };
    if (backend === 'postgres') {
      const server = await createServerDatabase();
      storage = { databaseUrl: server.url };
      drop = server.drop;
    }
    gateway = await startWorkerGateway(storage);
    shop = await merchant(gateway.call, '0.00');
  });
  afterAll(async () => {
    await gateway.close();
    await drop();
  });

  const putPricing = (body: unknown, accountId = shop.accountId, auth = operator) =>
    gateway.call('PUT', `/operator/accounts/${accountId}/pricing`, { ...auth, body });

  describe('PUT /operator/accounts/{account_id}/pricing', () => {
    it('answers every method with the defaults until the operator sets a pricing', async () => {
      const answer = await gateway.call(
        'GET',
        `/operator/accounts/${shop.accountId}/pricing?environment=sandbox`,
        operator,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        account_id: shop.accountId,
        environment: 'sandbox',
        methods: {
          card: { percent: '2.90', fixed: '0.30' },
          mobile_wallet: { percent: '1.50', fixed: '0.00' },
          cash_app: { percent: '1.50', fixed: '0.00' },
          online_wallet: { percent: '1.50', fixed: '0.00' },
          p2p_app: { percent: '1.50', fixed: '0.00' },
        },
        clearing_days: { card: 2, mobile_wallet: 1, cash_app: 1, online_wallet: 1, p2p_app: 1 },
      });
      expect((await putPricing({ environment: 'production' })).body).toMatchObject({
        environment: 'production',
        methods: { card: { percent: '2.90', fixed: '0.30' } },
      });
    });

    it('sets custom prices and clearing days, keeping the default of each method left out', async () => {
      const answer = await putPricing({
        environment: 'sandbox',
        methods: { card: { percent: '3.1', fixed: '0.25' }, cash_app: { percent: '0', fixed: '0.10' } },
        clearing_days: { card: 0, p2p_app: 30 },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.methods).toMatchObject({
        card: { percent: '3.10', fixed: '0.25' },
        cash_app: { percent: '0.00', fixed: '0.10' },
        mobile_wallet: { percent: '1.50', fixed: '0.00' },
      });
      expect(answer.body.clearing_days).toEqual({
        card: 0,
        mobile_wallet: 1,
        cash_app: 1,
        online_wallet: 1,
        p2p_app: 30,
      });
      const read = await gateway.call(
        'GET',
        `/operator/accounts/${shop.accountId}/pricing?environment=sandbox`,
        operator,
      );
      expect(read.body).toEqual(answer.body);
      const { events } = await gateway.store.readStream(`pricing-${shop.accountId}-sandbox`);
      expect(events.map((e) => e.type)).toEqual(['AccountPricingSet']);
    });

    it.each([
      [{ methods: { bitcoin: { percent: '1', fixed: '0.00' } } }, 'invalid_request', 'methods.bitcoin'],
      [{ methods: { card: { percent: '100.5', fixed: '0.00' } } }, 'invalid_request', 'methods.card.percent'],
      [{ methods: { card: { percent: 2.9, fixed: '0.30' } } }, 'invalid_request', 'methods.card.percent'],
      [{ methods: { card: { percent: '2', fixed: '0.305' } } }, 'invalid_amount', 'methods.card.fixed'],
      [{ clearing_days: { card: -1 } }, 'invalid_request', 'clearing_days.card'],
      [{ clearing_days: { card: 1.5 } }, 'invalid_request', 'clearing_days.card'],
      [{ clearing_days: { card: 31 } }, 'invalid_request', 'clearing_days.card'],
      [{ methods: 'cheap' }, 'invalid_request', 'methods'],
    ])('refuses %j with 400 %s on %s', async (fields, code, param) => {
      const answer = await putPricing({ environment: 'sandbox', ...fields });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code, param });
    });

    it('refuses an unknown environment, an unknown account (404) and a caller without the operator token (401)', async () => {
      expect((await putPricing({ environment: 'staging' })).body.error).toMatchObject({
        code: 'invalid_request',
        param: 'environment',
      });
      expect((await putPricing({ environment: 'sandbox' }, 'acct_nobody')).status).toBe(404);
      expect(
        (await gateway.call('GET', '/operator/accounts/acct_nobody/pricing?environment=sandbox', operator))
          .status,
      ).toBe(404);
      expect(
        (await gateway.call('GET', `/operator/accounts/${shop.accountId}/pricing`, operator)).status,
      ).toBe(400);
      expect((await putPricing({ environment: 'sandbox' }, shop.accountId, { token: '' })).status).toBe(401);
      expect(
        (await gateway.call('GET', `/operator/accounts/${shop.accountId}/pricing?environment=sandbox`))
          .status,
      ).toBe(401);
    });
  });

  describe('a paid order', () => {
    it('records its proceeds: card 100.00 pays 3.20 and nets 96.80; wallet 10.00 pays 0.15', async () => {
      const { shop: checkout, pay } = await payingShop(gateway.call, gateway.url);
      const cardOrder = await pay('/sandbox/card', 100);
      const walletOrder = await pay('/sandbox/payment/mobilewallet', 10);
      const events = (await ledgerEventsOf(gateway.store, checkout.accountId)).filter(
        (e) => e.type !== 'LedgerLimitsSet',
      );
      expect(
        events.map(
          (e) =>
            e.type === 'PaymentProceedsRecorded' && [e.data.orderId, e.data.gross, e.data.fee, e.data.net],
        ),
      ).toEqual([
        [cardOrder, '100.00', '3.20', '96.80'],
        [walletOrder, '10.00', '0.15', '9.85'],
      ]);
      const ledger = await ledgerOf(gateway.store, checkout.accountId);
      expect([ledger.pending.toFixed(2), ledger.available.toFixed(2)]).toEqual(['106.65', '0.00']);
    });
  });

  describe('operator credits', () => {
    const credit = (body: Record<string, unknown>) =>
      gateway.call('POST', `/operator/accounts/${shop.accountId}/funds`, {
        ...operator,
        body: { environment: 'sandbox', ...body },
      });

    it('records the reason given, or "operator credit"', async () => {
      expect((await credit({ amount: '5.00', reason: 'goodwill for order 7' })).body).toMatchObject({
        credited: '5.00',
        reason: 'goodwill for order 7',
      });
      expect((await credit({ amount: '1.00' })).body).toMatchObject({ reason: 'operator credit' });
      const credits = (await ledgerEventsOf(gateway.store, shop.accountId)).filter(
        (e) => e.type === 'FundsCredited',
      );
      expect(credits.slice(-2).map((e) => e.type === 'FundsCredited' && e.data.reason)).toEqual([
        'goodwill for order 7',
        'operator credit',
      ]);
    });

    it.each([[''], ['   '], ['x'.repeat(201)], [7]])(
      'refuses the reason %j with 400 invalid_request',
      async (reason) => {
        const answer = await credit({ amount: '1.00', reason });
        expect(answer.status).toBe(400);
        expect(answer.body.error).toMatchObject({ code: 'invalid_request', param: 'reason' });
      },
    );
  });

  describe('PUT /dashboard/retained-target', () => {
    const put = (body: unknown, token = shop.adminToken) =>
      gateway.call('PUT', '/dashboard/retained-target', { token, body });

    it('sets the retained target of the USD ledger, or of the currency named', async () => {
      expect((await put({ environment: 'sandbox', amount: '12.5' })).body).toEqual({
        environment: 'sandbox',
        currency: 'USD',
        retained_target: '12.50',
      });
      expect((await ledgerOf(gateway.store, shop.accountId)).retainedTarget.toFixed(2)).toBe('12.50');
      expect((await put({ environment: 'sandbox', amount: '0', currency: 'EUR' })).body).toEqual({
        environment: 'sandbox',
        currency: 'EUR',
        retained_target: '0.00',
      });
    });

    it.each([
      [{ environment: 'sandbox', amount: '1.234' }, 'invalid_amount', 'amount'],
      [{ environment: 'sandbox', amount: '-1.00' }, 'invalid_amount', 'amount'],
      [{ environment: 'sandbox', amount: 10 }, 'invalid_amount', 'amount'],
      [{ environment: 'sandbox' }, 'invalid_amount', 'amount'],
      [{ environment: 'staging', amount: '1.00' }, 'invalid_request', 'environment'],
      [{ environment: 'sandbox', amount: '1.00', currency: 'usd' }, 'invalid_request', 'currency'],
      [{ environment: 'sandbox', amount: '1.00', currency: 'XYZ' }, 'unsupported_currency', 'currency'],
    ])('refuses %j with 400 %s', async (body, code, param) => {
      const answer = await put(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code, param });
    });

    it('refuses a caller without the admin token (401)', async () => {
      expect((await put({ environment: 'sandbox', amount: '1.00' }, '')).status).toBe(401);
    });
  });
});
