import { testBackends } from '@payouts/testing';
import { waitForPayout } from '../worker/worker-harness';
import {
  Call,
  client,
  Gateway,
  linkBody,
  merchant,
  Merchant,
  newKey,
  OPERATOR_TOKEN,
  startGateway,
} from './gateway-harness';
import { recipientClient } from '../recipient/recipient-client';

const operator = { token: OPERATOR_TOKEN };
const RETURN_URL = 'https://shop.example.com/done';

/**
 * The refusals of Create and Cancel that only a full request shows (docs/design.md#errors: status
 * and error body), and the List Payouts filters (`GET /api/payout/list`) with their exact time
 * boundaries.
 */
describe.each(testBackends().map((b) => b.name))(
  'payout refusals and list filters over HTTP on %s',
  (backend) => {
    let gateway: Gateway;
    let call: Call;

    beforeAll(async () => {
      gateway = await startGateway(backend);
      call = client(gateway.url);
    });
    afterAll(() => gateway.close());

    const pages = recipientClient(() => gateway.url);

    const create = (shop: Merchant, body: unknown) =>
      call('POST', '/sandbox/api/payout/create', { token: shop.token, key: newKey(), body });

    const redirectBody = (reference: string, customerId: string, amount = '10.00') => ({
      amount,
      merchant_reference: reference,
      delivery: 'redirect',
      customer_id: customerId,
      return_url: RETURN_URL,
    });

    const balance = async (shop: Merchant) =>
      (await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body;

    const list = (shop: Merchant, query: string) =>
      call('GET', `/sandbox/api/payout/list?${query}`, { token: shop.token });

    /** A merchant whose sandbox limits are the defaults but for `changes`, set through the operator API. */
    async function limitedMerchant(changes: Record<string, unknown>) {
      const shop = await merchant(call, '1000.00', { origins: ['https://shop.example.com'] });
      const limits = {
        fee_per_payout: '0.50',
        min_payout: '1.00',
        max_payout: '5000.00',
        max_open_exposure: '50000.00',
        max_pending_per_customer: 5,
        ...changes,
      };
      const set = await call('PUT', `/operator/accounts/${shop.accountId}/limits`, {
        ...operator,
        body: { environment: 'sandbox', ...limits },
      });
      expect(set.status).toBe(200);
      expect((await balance(shop)).limits).toEqual(limits);
      return shop;
    }

    /** What the recipient does on the hosted pages of a redirect payout: open the handoff, choose, confirm. */
    async function confirmAsRecipient(
      shop: Merchant,
      payoutId: string,
      customerId: string,
      walletHandle: string,
    ) {
      const session = await call('POST', `/sandbox/api/payout/${payoutId}/session`, {
        token: shop.token,
        key: newKey(),
        body: { customer_id: customerId },
      });
      expect(session.status).toBe(200);
      const { cookie, csrf } = await pages.open(session.body.payout_url);
      expect(csrf).toBeDefined();
      const chosen = await pages.post('/sandbox/recipient/details', cookie, {
        csrf_token: csrf,
        method: 'wallet',
        wallet_handle: walletHandle,
      });
      expect([chosen.status, chosen.headers.get('location')]).toEqual([303, '/sandbox/recipient']);
      const confirmed = await pages.post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf });
      expect([confirmed.status, confirmed.headers.get('location')]).toEqual([
        303,
        `${RETURN_URL}?payout_id=${payoutId}`,
      ]);
    }

    it('refuses to cancel a payout the recipient has confirmed with 409 not_cancellable and changes nothing', async () => {
      const shop = await merchant(call, '1000.00', { origins: ['https://shop.example.com'] });
      const created = await create(shop, redirectBody('confirmed-1', 'cust-confirmed', '15.00'));
      expect(created.status).toBe(201);
      const id = created.body.payout_id;
      // The sandbox value review@example.com holds the payout for review: it stays put while we look.
      await confirmAsRecipient(shop, id, 'cust-confirmed', 'review@example.com');
      const held = await waitForPayout(call, shop.token, id, (p) => p.status === 'review_required');
      expect(held).toMatchObject({ selected_method: 'wallet', funds_released: false });
      expect(held.accepted_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
      const before = await balance(shop);
      expect(before).toMatchObject({
        customer_payout_holds: '15.50',
        available_for_new_commitments: '984.50',
      });

      const cancelled = await call('POST', `/sandbox/api/payout/${id}/cancel`, {
        token: shop.token,
        key: newKey(),
      });
      expect(cancelled.status).toBe(409);
      expect(cancelled.body).toEqual({ error: { code: 'not_cancellable', message: expect.any(String) } });
      expect(await balance(shop)).toEqual(before);
      expect((await call('GET', `/sandbox/api/payout/${id}`, { token: shop.token })).body).toEqual(held);
    });

    it('refuses a payout that would take open exposure above max_open_exposure with 422 exposure_limit_exceeded', async () => {
      const shop = await limitedMerchant({ max_open_exposure: '21.00' });
      // Two payouts of 10.00 + 0.50 fee reach the cap exactly; one more cent of exposure is too much.
      for (const reference of ['exposure-1', 'exposure-2']) {
        expect((await create(shop, linkBody(reference, '10.00'))).status).toBe(201);
      }
      const before = await balance(shop);
      expect(before).toMatchObject({
        customer_payout_holds: '21.00',
        available_for_new_commitments: '979.00',
      });

      const refused = await create(shop, linkBody('exposure-3', '1.00'));
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        error: { code: 'exposure_limit_exceeded', message: expect.any(String) },
      });
      expect(await balance(shop)).toEqual(before);
      expect((await list(shop, 'merchant_reference=exposure-3')).body.total).toBe(0);
      expect((await list(shop, '')).body.total).toBe(2);
    });

    it('refuses a second pending redirect payout for one customer when max_pending_per_customer is 1 with 422 customer_pending_limit', async () => {
      const shop = await limitedMerchant({ max_pending_per_customer: 1 });
      const first = await create(shop, redirectBody('pending-1', 'cust-pending'));
      expect(first.status).toBe(201);
      const before = await balance(shop);
      expect(before).toMatchObject({
        customer_payout_holds: '10.50',
        available_for_new_commitments: '989.50',
      });

      const refused = await create(shop, redirectBody('pending-2', 'cust-pending'));
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        error: { code: 'customer_pending_limit', message: expect.any(String) },
      });
      expect(await balance(shop)).toEqual(before);
      expect((await list(shop, 'customer_id=cust-pending')).body.total).toBe(1);
      expect((await list(shop, 'merchant_reference=pending-2')).body.total).toBe(0);

      // The limit is per customer: another customer is still served.
      expect((await create(shop, redirectBody('pending-3', 'cust-other'))).status).toBe(201);
    });

    it('counts only pending payouts against max_pending_per_customer: after a cancel the customer may have a new one', async () => {
      const shop = await limitedMerchant({ max_pending_per_customer: 1 });
      const first = await create(shop, redirectBody('freed-1', 'cust-freed'));
      expect(first.status).toBe(201);
      const cancelled = await call('POST', `/sandbox/api/payout/${first.body.payout_id}/cancel`, {
        token: shop.token,
        key: newKey(),
      });
      expect([cancelled.status, cancelled.body.status]).toEqual([200, 'cancelled']);
      const again = await create(shop, redirectBody('freed-2', 'cust-freed'));
      expect([again.status, again.body.error]).toEqual([201, undefined]);
      expect(await balance(shop)).toMatchObject({
        customer_payout_holds: '10.50',
        available_for_new_commitments: '989.50',
      });
    });

    it('filters the list by customer_id, since (inclusive) and until (exclusive), with total across pages', async () => {
      const shop = await merchant(call, '1000.00', { origins: ['https://shop.example.com'] });
      const bodies = [
        redirectBody('filter-1', 'cust-a'),
        redirectBody('filter-2', 'cust-b'),
        redirectBody('filter-3', 'cust-a'),
        linkBody('filter-4'),
      ];
      const ids: string[] = [];
      for (const body of bodies) {
        // One second of sandbox time between creates, so every payout has its own created_at.
        const advanced = await call('POST', '/operator/sandbox/clock', {
          ...operator,
          body: { advance_seconds: 1 },
        });
        expect(advanced.status).toBe(200);
        const created = await create(shop, body);
        expect(created.status).toBe(201);
        ids.push(created.body.payout_id);
      }
      const createdAt: string[] = [];
      for (const id of ids) {
        createdAt.push(
          (await call('GET', `/sandbox/api/payout/${id}`, { token: shop.token })).body.created_at,
        );
      }
      expect(new Set(createdAt).size).toBe(4);
      const [p1, p2, p3, p4] = ids;
      const [, t2, t3, t4] = createdAt.map(encodeURIComponent);

      const ask = async (query: string) => {
        const answer = await list(shop, query);
        expect(answer.status).toBe(200);
        return {
          total: answer.body.total,
          ids: answer.body.data.map((p: { payout_id: string }) => p.payout_id),
        };
      };

      const byCustomer = await list(shop, 'customer_id=cust-a');
      expect(byCustomer.body.total).toBe(2);
      expect(byCustomer.body.data.map((p: { payout_id: string }) => p.payout_id)).toEqual([p3, p1]);
      expect(byCustomer.body.data.every((p: { customer_id: string }) => p.customer_id === 'cust-a')).toBe(
        true,
      );

      expect(await ask(`since=${t2}`)).toEqual({ total: 3, ids: [p4, p3, p2] });
      expect(await ask(`until=${t3}`)).toEqual({ total: 2, ids: [p2, p1] });
      expect(await ask(`since=${t2}&until=${t4}`)).toEqual({ total: 2, ids: [p3, p2] });
      expect(await ask(`customer_id=cust-a&since=${t2}`)).toEqual({ total: 1, ids: [p3] });
      expect(await ask(`customer_id=cust-b&until=${t2}`)).toEqual({ total: 0, ids: [] });
      expect(await ask(`since=${t2}&limit=1&offset=1`)).toEqual({ total: 3, ids: [p3] });
      expect(await ask(`customer_id=cust-a&limit=1`)).toEqual({ total: 2, ids: [p3] });

      // A bound finer than a millisecond keeps what the exact bound would: p2 was created before
      // t2 + 0.1 µs, so it is not at or after it, and p3 was created before t3 + 0.1 µs.
      const finer = (at: string) => encodeURIComponent(at.replace('Z', '1Z'));
      expect(await ask(`since=${finer(createdAt[1]!)}`)).toEqual({ total: 2, ids: [p4, p3] });
      expect(await ask(`until=${finer(createdAt[2]!)}`)).toEqual({ total: 3, ids: [p3, p2, p1] });

      // An offset past the end is answered as asked (only limit is capped: docs/design.md#limits):
      // an empty page.
      const far = await list(shop, 'offset=2000000');
      expect(far.status).toBe(200);
      expect(far.body).toMatchObject({ total: 4, offset: 2000000, data: [] });
    });

    // The forms every date of the API takes (docs/dates.md), a date alone and an offset among
    // them, are in api-dates.e2e.spec.ts; these are the ones none takes.
    it.each([
      ['an offset without a colon', '2026-01-31T00:00:00+0100'],
      ['year 0', '0000-01-01T00:00:00Z'],
      ['year 9999 pushed into year 10000 by its offset', '9999-12-31T23:59:59-05:00'],
      ['words', 'yesterday'],
      ['a day that does not exist', '2026-02-30T00:00:00Z'],
      ['hour 24', '2026-01-31T24:00:00Z'],
      ['second 60', '2026-01-31T23:59:60Z'],
    ])('refuses a since of %s with 400 invalid_request on since', async (_case, since) => {
      const shop = await merchant(call);
      const answer = await list(shop, `since=${encodeURIComponent(since)}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: { code: 'invalid_request', message: expect.any(String), param: 'since' },
      });
    });

    it('refuses a 192-character customer_id on a redirect create and accepts 191 characters', async () => {
      const shop = await merchant(call, '1000.00', { origins: ['https://shop.example.com'] });
      const before = await balance(shop);
      const long = await create(shop, redirectBody('customer-192', 'c'.repeat(192)));
      expect(long.status).toBe(400);
      expect(long.body).toEqual({
        error: { code: 'invalid_request', message: expect.any(String), param: 'customer_id' },
      });
      expect(await balance(shop)).toEqual(before);

      const longest = 'c'.repeat(191);
      const accepted = await create(shop, redirectBody('customer-191', longest));
      expect(accepted.status).toBe(201);
      const got = await call('GET', `/sandbox/api/payout/${accepted.body.payout_id}`, { token: shop.token });
      expect(got.body).toMatchObject({ customer_id: longest, delivery: 'redirect' });
    });
  },
);
