import { testBackends } from '@payouts/testing';
import { checkoutShop, orderBody, Shop } from '../checkout/checkout-harness';
import { Call, client, Gateway, linkBody, merchant, Merchant, newKey, startGateway } from './gateway-harness';

/**
 * Every date the API takes, over HTTP (docs/dates.md): Get Payments History's start_date and
 * end_date, and the since and until of List Balance Transactions and List Payouts, on both
 * environments' paths. A date that names no real instant from 0001 to 9999 is 400 invalid_request
 * naming the field, never a 500 from the database; the accepted forms mean the same on each.
 */
describe.each(testBackends().map((b) => b.name))('the dates the API takes, over HTTP on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;
  let payouts: Merchant;
  let productionPayoutToken: string;
  let checkout: Shop;
  let productionCheckout: Shop;
  let payoutCreatedAt: string;
  let orderCreatedAt: string;

  beforeAll(async () => {
    gateway = await startGateway(backend);
    call = client(gateway.url);
    payouts = await merchant(call);
    const enabled = await call('PUT', '/dashboard/payouts-enabled', {
      token: payouts.adminToken,
      body: { environment: 'production', enabled: true },
    });
    expect(enabled.status).toBe(200);
    const production = await call('POST', '/dashboard/credentials', {
      token: payouts.adminToken,
      body: { kind: 'payout', environment: 'production' },
    });
    expect(production.status).toBe(201);
    productionPayoutToken = production.body.token;
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: payouts.token,
      key: newKey(),
      body: linkBody('dates-1'),
    });
    expect(created.status).toBe(201);
    payoutCreatedAt = (await call('GET', `/sandbox/api/payout/${created.body.payout_id}`, payoutAuth())).body
      .created_at;

    checkout = await checkoutShop(call);
    productionCheckout = await checkoutShop(call, { environment: 'production' });
    const order = await call('POST', '/sandbox/card', { token: checkout.key, body: orderBody() });
    expect(order.status).toBe(200);
    orderCreatedAt = (
      await call('GET', `/sandbox/payment/status?payment_id=${order.body.order_id}`, { token: checkout.key })
    ).body.data.created_at;
  });
  afterAll(() => gateway.close());

  const payoutAuth = (environment: 'sandbox' | 'production' = 'sandbox') => ({
    token: environment === 'sandbox' ? payouts.token : productionPayoutToken,
  });
  const prefix = (environment: 'sandbox' | 'production') => (environment === 'sandbox' ? '/sandbox' : '');

  /** Dates that name no instant the API can store, each for a reason docs/dates.md gives. */
  const REFUSED: [string, string][] = [
    ['year 0', '0000-01-01T00:00:00Z'],
    ['year 0, a date alone', '0000-01-01'],
    ['year 1 pushed into year 0 by its offset', '0001-01-01T00:00:00+01:00'],
    ['year 9999 pushed into year 10000 by its offset', '9999-12-31T23:59:59-05:00'],
    ['a five-digit year', '10000-01-01T00:00:00Z'],
    ['a signed year', '-000001-01-01T00:00:00Z'],
    ['30 February', '2026-02-30'],
    ['31 April', '2026-04-31T00:00:00Z'],
    ['29 February of a common year', '2025-02-29'],
    ['hour 24', '2026-01-31T24:00:00Z'],
    ['hour 24 without seconds', '2026-01-31T24:00'],
    ['minute 60', '2026-01-31T23:60:00Z'],
    ['second 60', '2026-01-31T23:59:60Z'],
    ['an offset of 24 hours', '2026-01-31T00:00:00+24:00'],
    ['an offset without a colon', '2026-01-31T00:00:00+0100'],
    ['a space for the T', '2026-01-31 00:00:00Z'],
    ['a month without its zero', '2026-1-31'],
    ['words', 'yesterday'],
    ['a number of milliseconds', '1769817600000'],
    ['a fraction of ten digits', '2026-01-31T00:00:00.1234567891Z'],
  ];

  describe.each(['sandbox', 'production'] as const)('Get Payments History on %s', (environment) => {
    const history = (body: unknown) =>
      call('POST', `${prefix(environment)}/payment/history`, {
        token: environment === 'sandbox' ? checkout.key : productionCheckout.key,
        body,
      });

    it.each(REFUSED)('refuses a start_date of %s (%s) with 400 invalid_request', async (_case, date) => {
      const answer = await history({ start_date: date, end_date: '2026-01-01' });
      expect([answer.status, answer.body]).toEqual([
        400,
        { error: { code: 'invalid_request', message: expect.any(String), param: 'start_date' } },
      ]);
    });

    it.each(REFUSED)('refuses an end_date of %s (%s) with 400 invalid_request', async (_case, date) => {
      const answer = await history({ start_date: '2026-01-01', end_date: date });
      expect([answer.status, answer.body]).toEqual([
        400,
        { error: { code: 'invalid_request', message: expect.any(String), param: 'end_date' } },
      ]);
    });

    it('answers the first and last instants the API takes, and a date alone', async () => {
      for (const body of [
        { start_date: '0001-01-01T00:00:00Z', end_date: '9999-12-31T23:59:59.999Z' },
        { start_date: '0001-01-01', end_date: '9999-12-31' },
        { start_date: '0001-01-01T01:00:00+01:00', end_date: '9999-12-31T18:59:59-05:00' },
      ]) {
        const answer = await history(body);
        expect(answer.status).toBe(200);
        expect(answer.body.data).toHaveLength(environment === 'sandbox' ? 1 : 0);
      }
    });
  });

  it('reads a history date with an offset as the instant it names, both ends inclusive', async () => {
    const history = (start: string, end: string) =>
      call('POST', '/sandbox/payment/history', {
        token: checkout.key,
        body: { start_date: start, end_date: end },
      });
    const at = Date.parse(orderCreatedAt);
    const exact = inOffset(at, 5 * 60 + 30);
    expect((await history(exact, exact)).body.data).toHaveLength(1);
    expect((await history(inOffset(at + 1, -4 * 60), '9999-12-31')).body.data).toHaveLength(0);
    expect((await history('0001-01-01', inOffset(at - 1, -4 * 60))).body.data).toHaveLength(0);
    // A time without a zone is UTC, as before.
    expect((await history(orderCreatedAt.replace('Z', ''), '9999-12-31')).body.data).toHaveLength(1);
  });

  const LISTS: [string, string][] = [
    ['List Balance Transactions', '/api/balance/transactions'],
    ['List Payouts', '/api/payout/list'],
  ];

  describe.each(
    LISTS.flatMap(([name, path]) =>
      (['sandbox', 'production'] as const).map((environment) => [name, path, environment] as const),
    ),
  )('%s (%s) on %s', (_name, path, environment) => {
    const list = (query: string) =>
      call('GET', `${prefix(environment)}${path}?${query}`, payoutAuth(environment));

    it.each(
      REFUSED.flatMap(([why, date]) => [
        ['since', why, date],
        ['until', why, date],
      ]),
    )('refuses %s of %s (%s) with 400 invalid_request naming it', async (param, _case, date) => {
      const answer = await list(`${param}=${encodeURIComponent(date)}`);
      expect([answer.status, answer.body]).toEqual([
        400,
        { error: { code: 'invalid_request', message: expect.any(String), param } },
      ]);
    });

    it('answers the first and last instants the API takes, an offset and a date alone', async () => {
      for (const query of [
        'since=0001-01-01T00:00:00Z',
        'until=9999-12-31T23:59:59.999Z',
        'since=0001-01-01&until=9999-12-31',
        `since=${encodeURIComponent('2026-01-31T00:00:00+01:00')}`,
        'until=2026-01-31T00:00',
      ]) {
        const answer = await list(query);
        expect([query, answer.status]).toEqual([query, 200]);
      }
    });
  });

  it.each(LISTS)('%s reads since and until with an offset as the instants they name', async (_name, path) => {
    const list = async (query: string) =>
      (await call('GET', `/sandbox${path}?${query}`, payoutAuth())).body.data as { created_at: string }[];
    const first = (await list('')).at(-1)!.created_at;
    const at = Date.parse(path.includes('payout') ? payoutCreatedAt : first);
    const since = (ms: number) => `since=${encodeURIComponent(inOffset(ms, -(9 * 60 + 45)))}`;
    const until = (ms: number) => `until=${encodeURIComponent(inOffset(ms, 14 * 60))}`;
    const oldest = async (query: string) => (await list(query)).map((row) => row.created_at).includes(first);
    if (path.includes('payout')) expect(payoutCreatedAt).toBe(first);
    expect(await oldest(since(at))).toBe(true);
    expect(await oldest(since(at + 1))).toBe(false);
    expect(await oldest(until(at + 1))).toBe(true);
    expect(await oldest(until(at))).toBe(false);
  });
});

/** `ms` written in local time at `offsetMinutes` east of UTC, to the millisecond: `…T05:30:00.000+05:30`. */
function inOffset(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
