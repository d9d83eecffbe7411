import Big from 'big.js';
import { LEDGER_STREAM_TYPE, ledgerStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE } from '@payouts/platform';
import { dayLabel } from '@payouts/read-models';
import { BALANCE_TRANSACTION_CSV_COLUMNS, SETTLEMENT_CSV_COLUMNS } from '@payouts/settlements';
import { Call, Gateway, merchant, Merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { ReadModelProjector } from '../../../apps/projector/src/read-model-projector';
import { fundsScene, FundsScene, startFundsGateway } from './home-and-balance-fixtures';
import { PageAnswer, PageBrowser } from './page-browser';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BALANCE = '/dashboard/balance';
const TRANSACTIONS_CSV = '/dashboard/balance/transactions.csv';
const SETTLEMENTS_CSV = '/dashboard/balance/settlements.csv';
const TIME_ZONE = 'Asia/Tokyo';

/** Text of an HTML fragment: tags dropped, the renderer's entities read back. */
const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();

/** The body rows of the table captioned `caption`, as cell texts; null when there is no such table. */
function tableRows(page: PageAnswer, caption: string): string[][] | null {
  const table = new RegExp(`<caption>${caption}</caption>(.*?)</table>`, 's').exec(page.body)?.[1];
  if (table === undefined) return null;
  const body = /<tbody>(.*?)<\/tbody>/s.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr>(.*?)<\/tr>/gs)].map(([, row]) =>
    [...row!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map(([, cell]) => text(cell!)),
  );
}

/** The "Showing a–b of n noun" line of a list's pagination. */
const showing = (page: PageAnswer, noun: string): string | undefined =>
  new RegExp(`<p>(Showing \\d+–\\d+ of \\d+ ${noun})</p>`).exec(page.body)?.[1];

/** A figure on Home: `<code>field</code>` and the value shown under it. */
const figure = (page: PageAnswer, field: string): string | undefined =>
  new RegExp(`<code>${field.replace('.', '\\.')}</code></dt><dd class="home-figure-value">(.*?)</dd>`).exec(
    page.body,
  )?.[1];

/** RFC 4180 without quoted fields (none of these rows has a comma, quote or line break). */
function csvRecords(body: string): string[][] {
  expect(body.endsWith('\r\n')).toBe(true);
  return body
    .slice(0, -2)
    .split('\r\n')
    .map((line) => line.split(','));
}

/** The href of the link whose text starts with `label`, as the browser would follow it. */
const hrefOf = (page: PageAnswer, label: string): string | undefined =>
  new RegExp(`<a [^>]*href="([^"]+)"[^>]*>${label}`).exec(page.body)?.[1]?.replace(/&amp;/g, '&');

/**
 * Home and Balance (docs/dashboard.md#home, #balance) over real HTTP: the payout balance with every
 * figure, the pending proceeds, the next settlement and the 30-day chart; the balance transactions
 * with their filters, pages and CSV, the settlements and one settlement's page; every refusal and
 * what another account or environment may not see. One gateway; the money moved through the real
 * service (fundsScene).
 */
describe('dashboard Home and Balance (real HTTP)', () => {
  let gateway: Gateway;
  let shop: Merchant;
  let scene: FundsScene;
  let call: Call;
  let browser: PageBrowser;

  /** A browser signed in to the account, showing `environment` (production is the default at sign-in). */
  const signIn = async (adminToken: string, environment: 'production' | 'sandbox'): Promise<PageBrowser> => {
    const signedIn = new PageBrowser(gateway.url);
    const answer = await signedIn.submit('/dashboard', '/dashboard/sign-in', { admin_token: adminToken });
    expect(answer.status).toBe(303);
    if (environment === 'sandbox') {
      const switched = await signedIn.submit('/dashboard', '/dashboard/environment', { environment });
      expect(switched.status).toBe(303);
    }
    return signedIn;
  };

  /** The API's answer for the same account (sandbox payout credential). */
  const api = async (path: string): Promise<Row> => {
    const answer = await call('GET', `/sandbox/api${path}`, { token: shop.token });
    return answer.body as Row;
  };

  beforeAll(async () => {
    ({ gateway, shop } = await startFundsGateway());
    scene = await fundsScene(gateway, shop, { creditCount: 30, timeZone: TIME_ZONE });
    call = scene.call;
    // Production has money of its own, and no payout limits.
    const credited = await call('POST', `/operator/accounts/${shop.accountId}/funds`, {
      token: OPERATOR_TOKEN,
      body: {
        environment: 'production',
        amount: '5.00',
        reference: 'production-1',
        reason: 'Production float',
      },
    });
    expect(credited.status).toBe(200);
    browser = await signIn(shop.adminToken, 'sandbox');
  }, 60_000);
  afterAll(() => gateway?.close());

  describe('Home', () => {
    it('shows every figure of Get Payout Balance as the API gives it, each with its sentence', async () => {
      const balance = await api('/payout/balance');
      const home = await browser.get('/dashboard');
      expect(home.status).toBe(200);
      for (const field of [
        'pending',
        'matured',
        'available_for_new_commitments',
        'merchant_settlement_holds',
        'customer_payout_holds',
        'customer_payouts_settled',
        'retained_target',
        'estimated_next_settlement',
        'limits.fee_per_payout',
        'limits.min_payout',
        'limits.max_payout',
      ]) {
        const value = field.startsWith('limits.') ? balance.limits[field.slice(7)] : balance[field];
        expect({ field, shown: figure(home, field) }).toEqual({ field, shown: `${value as string} USD` });
      }
      expect(figure(home, 'limits.max_open_exposure')).toBe(
        balance.limits.max_open_exposure === null
          ? 'No cap'
          : `${balance.limits.max_open_exposure as string} USD`,
      );
      expect(figure(home, 'limits.max_pending_per_customer')).toBe(
        String(balance.limits.max_pending_per_customer ?? 'No cap'),
      );
      // The scene's figures: 300.00 credited, 20.00 + fee paid out, 50.00 kept back, the rest settled.
      expect(balance).toMatchObject({
        pending: '96.80',
        retained_target: '50.00',
        estimated_next_settlement: '0.00',
      });
      // The next run, in the account's zone with UTC in its title.
      expect(figure(home, 'next_settlement_at')).toContain(
        `<time datetime="${balance.next_settlement_at as string}"`,
      );
      expect(figure(home, 'next_settlement_at')).toMatch(/GMT\+9<\/time>$/);
      // One sentence a figure (11 balance figures and limits, 2 of the next settlement).
      expect(home.body.match(/<dd class="home-figure-note">[^<]+\.<\/dd>/g)).toHaveLength(14);
      expect(home.body).toContain('it is not a cap on payouts.');
      expect(home.body).toContain('A run sends nothing below 1.00');
    });

    it('lists the pending proceeds: the card payment and its fee, whose nets make the pending figure', async () => {
      const home = await browser.get('/dashboard');
      const rows = tableRows(home, 'Pending proceeds')!;
      const pendingRows = (await api('/balance/transactions?limit=200')).data.filter(
        (row: Row) => row.status === 'pending',
      );
      expect(rows.map((row) => [row[1], row[2], row[3]])).toEqual([
        ['Processing fee', String(scene.orderId), '-3.20 USD'],
        ['Payment', String(scene.orderId), '100.00 USD'],
      ]);
      expect(pendingRows).toHaveLength(2);
      // "Clears" is each row's available_on, in Tokyo.
      expect(home.body).toContain(`<time datetime="${pendingRows[0].available_on as string}"`);
      expect(showing(home, 'pending movements')).toBe('Showing 1–2 of 2 pending movements');
      const nets = pendingRows.reduce((sum: Big, row: Row) => sum.plus(row.net as string), new Big(0));
      expect(nets.toFixed(2)).toBe(figure(home, 'pending')!.replace(' USD', ''));
    });

    it('draws the last 30 days in the account’s time zone as inline SVG, with the same figures as a table', async () => {
      const before = new Date();
      const home = await browser.get('/dashboard');
      const after = new Date();
      const svg = /<svg [^]*?<\/svg>/.exec(home.body)?.[0] ?? '';
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="daily-flows-chart"/);
      expect(svg).toContain('role="img" aria-labelledby="home-chart-title home-chart-desc"');
      expect(svg).toContain('Day (Asia/Tokyo)');
      // Nothing the pages' CSP refuses: no style, script or handler.
      expect(svg).not.toMatch(/<script|<style|\sstyle=|\son\w+=/i);
      const rows = tableRows(home, 'Money in and out per day, USD')!;
      expect(rows).toHaveLength(30);
      const tokyoDay = (at: Date) =>
        dayLabel(
          new Intl.DateTimeFormat('en-CA', {
            timeZone: TIME_ZONE,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
          }).format(at),
        );
      expect([tokyoDay(before), tokyoDay(after)]).toContain(rows[29]![0]);
      // The totals are sums of the balance transactions: the payment's net, the paid payout, the settlement.
      const payout = await api(`/payout/${scene.payoutId}`);
      const settlement = await api(`/settlements/${scene.settlementId}`);
      const sum = (column: number) =>
        rows.reduce((total, row) => total.plus(row[column]!), new Big(0)).toFixed(2);
      expect([sum(1), sum(2), sum(3)]).toEqual(['96.80', payout.total_reserved, settlement.amount]);
      expect(home.body).toContain(`<dt>Payments in, 30 days</dt><dd>96.80 USD</dd>`);
      expect(home.body).toContain(
        `<dt>Settlements out, 30 days</dt><dd>${settlement.amount as string} USD</dd>`,
      );
      // Each bar says its figure; the screen reader's description gives the totals.
      expect(svg).toContain(`Settlements out ${settlement.amount as string} USD</title>`);
    });

    it('charts another currency’s ledger, and refuses a malformed currency as the API does (400)', async () => {
      const euro = await browser.get('/dashboard?currency=EUR');
      expect(euro.status).toBe(200);
      expect(euro.body).toContain('<h2 id="home-flows-heading">Last 30 days in EUR</h2>');
      expect(euro.body).toContain('<dt>Payments in, 30 days</dt><dd>0.00 EUR</dd>');

      const before = await api('/payout/balance');
      const refused = await browser.get('/dashboard?currency=usd');
      expect(refused.status).toBe(400);
      const apiRefusal = await call('GET', '/sandbox/api/balance/transactions?currency=usd', {
        token: shop.token,
      });
      expect(refused.body).toContain(
        `<p class="error" id="field-currency-error">${apiRefusal.body.error.message as string}</p>`,
      );
      expect(refused.body).toMatch(
        /id="field-currency" name="currency" type="text" value="usd"[^>]*aria-invalid="true"/,
      );
      expect(refused.body).not.toContain('<svg');
      // Nothing else changes: the balance is still shown, and is what it was.
      expect(figure(refused, 'pending')).toBe('96.80 USD');
      expect(await api('/payout/balance')).toEqual(before);
    });

    it('shows production’s own figures after the switch: its one credit, nothing pending', async () => {
      const production = await signIn(shop.adminToken, 'production');
      const home = await production.get('/dashboard');
      expect(home.status).toBe(200);
      expect(home.body).toContain('value="production" aria-pressed="true"');
      expect(figure(home, 'available_for_new_commitments')).toBe('5.00 USD');
      expect(figure(home, 'pending')).toBe('0.00 USD');
      expect(home.body).toContain('Nothing waiting to clear');
      expect(home.body).toContain('<dt>Payments in, 30 days</dt><dd>0.00 USD</dd>');
    });
  });

  describe('Balance', () => {
    it('lists the balance transactions newest first, 25 a page with the total, as the API lists them', async () => {
      const all = await api('/balance/transactions?limit=200');
      const first = await browser.get(BALANCE);
      expect(first.status).toBe(200);
      expect(showing(first, 'balance transactions')).toBe(
        `Showing 1–25 of ${all.total as number} balance transactions`,
      );
      const rows = tableRows(first, 'Balance transactions')!;
      expect(rows.map((row) => row[2])).toEqual(all.data.slice(0, 25).map((row: Row) => row.description));
      // The settlement's row links to it, and so does every row it took.
      expect(first.body).toContain(`<a href="/dashboard/balance/settlements/${scene.settlementId}">`);
      const next = await browser.get(hrefOf(first, 'Next page')!);
      expect(tableRows(next, 'Balance transactions')!.map((row) => row[2])).toEqual(
        all.data.slice(25, 50).map((row: Row) => row.description),
      );
    });

    it('gives as CSV exactly the rows of the filter, every page of it, with a header row', async () => {
      const filtered = await browser.get(`${BALANCE}?type=adjustment&currency=USD`);
      expect(showing(filtered, 'balance transactions')).toBe('Showing 1–25 of 30 balance transactions');
      const next = await browser.get(hrefOf(filtered, 'Next page')!);
      expect(hrefOf(filtered, 'Next page')).toBe(`${BALANCE}?type=adjustment&currency=USD&offset=25`);
      expect(showing(next, 'balance transactions')).toBe('Showing 26–30 of 30 balance transactions');
      const onPages = [filtered, next].flatMap((page) =>
        tableRows(page, 'Balance transactions')!.map((row) => row[2]),
      );
      expect(onPages).toEqual([...scene.credits].reverse());

      const link = hrefOf(filtered, 'Download CSV');
      expect(link).toBe(`${TRANSACTIONS_CSV}?type=adjustment&currency=USD`);
      const csv = await browser.get(link!);
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toBe(
        'attachment; filename="balance-transactions-sandbox.csv"',
      );
      const records = csvRecords(csv.body);
      expect(records[0]).toEqual(BALANCE_TRANSACTION_CSV_COLUMNS.map((column) => column.header));
      expect(records.slice(1).map((record) => record[12])).toEqual(onPages);
      const fromApi = (await api('/balance/transactions?type=adjustment&currency=USD&limit=200'))
        .data as Row[];
      expect(records.slice(1).map((record) => [record[0], record[5], record[13]])).toEqual(
        fromApi.map((row) => [row.id, row.net, row.created_at]),
      );
      // No filter: every row of the account's sandbox, more than one of the page's pages.
      const everything = csvRecords((await browser.get(TRANSACTIONS_CSV)).body);
      const all = await api('/balance/transactions?limit=200');
      expect(all.total).toBeGreaterThan(25);
      expect(everything.slice(1).map((record) => record[0])).toEqual(all.data.map((row: Row) => row.id));
    });

    it('filters by a date range and by settlement exactly as List Balance Transactions does', async () => {
      const credits = (await api('/balance/transactions?type=adjustment&limit=200')).data as Row[];
      const since = credits[19]!.created_at as string; // Credit 11
      const until = credits[9]!.created_at as string; // Credit 21, not included
      const query = `since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`;
      const page = await browser.get(`${BALANCE}?${query}`);
      const fromApi = (await api(`/balance/transactions?${query}&limit=200`)).data as Row[];
      expect(fromApi.length).toBeGreaterThanOrEqual(10);
      expect(tableRows(page, 'Balance transactions')!.map((row) => row[2])).toEqual(
        fromApi.map((row) => row.description),
      );
      expect(page.body).toContain(`id="field-since" name="since" type="text" value="${since}"`);

      const settled = await browser.get(`${BALANCE}?settlement_id=${scene.settlementId}`);
      const covered = await api(`/balance/transactions?settlement_id=${scene.settlementId}&limit=200`);
      expect(showing(settled, 'balance transactions')).toBe(
        `Showing 1–25 of ${covered.total as number} balance transactions`,
      );
      const csv = csvRecords((await browser.get(hrefOf(settled, 'Download CSV')!)).body);
      expect(csv.slice(1).map((record) => record[0])).toEqual(covered.data.map((row: Row) => row.id));
      // Pending proceeds are not in it; the settlement's own row is.
      expect(csv.slice(1).map((record) => record[6])).not.toContain('pending');
      expect(
        csv.slice(1).some((record) => record[1] === 'settlement' && record[10] === scene.settlementId),
      ).toBe(true);

      const none = await browser.get(`${BALANCE}?currency=EUR`);
      expect(none.status).toBe(200);
      expect(none.body).toContain('No balance transactions match this filter');
      expect(tableRows(none, 'Balance transactions')).toBeNull();
    });

    it.each([
      ['type', 'refund'],
      ['currency', 'usd'],
      ['since', '2026-02-30'],
      ['until', 'yesterday'],
      ['settlement_id', 'stl_123'],
    ])(
      'refuses a malformed %s as the API does: 400, the field marked, no list and nothing changed',
      async (field, value) => {
        const before = await api('/balance/transactions?limit=1');
        const page = await browser.get(`${BALANCE}?${field}=${encodeURIComponent(value)}`);
        expect(page.status).toBe(400);
        const fromApi = await call(
          'GET',
          `/sandbox/api/balance/transactions?${field}=${encodeURIComponent(value)}`,
          {
            token: shop.token,
          },
        );
        expect(fromApi.status).toBe(400);
        expect(fromApi.body.error.param).toBe(field);
        expect(
          text(new RegExp(`<p class="error" id="field-${field}-error">(.*?)</p>`).exec(page.body)![1]!),
        ).toBe(fromApi.body.error.message);
        expect(page.body).toMatch(new RegExp(`id="field-${field}"[^>]*aria-invalid="true"`));
        expect(tableRows(page, 'Balance transactions')).toBeNull();
        expect(
          hrefOf(page, 'Download CSV<span class="visually-hidden"> of the \\d+ balance'),
        ).toBeUndefined();
        // The settlements are still listed; nothing moved.
        expect(tableRows(page, 'Settlements')).toHaveLength(1);
        expect((await api('/balance/transactions?limit=1')).total).toBe(before.total);
        // Its CSV is refused the same way, with the error page.
        const csv = await browser.get(`${TRANSACTIONS_CSV}?${field}=${encodeURIComponent(value)}`);
        expect(csv.status).toBe(400);
        expect(csv.headers['content-type']).toMatch(/^text\/html/);
      },
    );

    it('refuses a CSV query the API would refuse: an unknown filter', async () => {
      const csv = await browser.get(`${TRANSACTIONS_CSV}?colour=red`);
      expect(csv.status).toBe(400);
      expect((await browser.get(`${SETTLEMENTS_CSV}?status=lost`)).status).toBe(400);
    });

    it('lists the settlements with their total and gives them as CSV', async () => {
      const page = await browser.get(BALANCE);
      const settlement = await api(`/settlements/${scene.settlementId}`);
      expect(showing(page, 'settlements')).toBe('Showing 1–1 of 1 settlements');
      expect(tableRows(page, 'Settlements')).toEqual([
        [
          scene.settlementId,
          expect.stringMatching(/GMT\+9$/),
          `${settlement.amount as string} USD`,
          'Paid',
          'Run by the operator',
          expect.stringMatching(/GMT\+9$/),
        ],
      ]);
      const link = hrefOf(page, 'Download CSV<span class="visually-hidden"> of the 1 settlements');
      expect(link).toBe(SETTLEMENTS_CSV);
      const csv = await browser.get(link!);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toBe('attachment; filename="settlements-sandbox.csv"');
      expect(csvRecords(csv.body)).toEqual([
        SETTLEMENT_CSV_COLUMNS.map((column) => column.header),
        [
          settlement.id,
          'USD',
          settlement.amount,
          'paid',
          '',
          'manual',
          '50.00',
          settlement.created_at,
          settlement.paid_at,
          '',
        ],
      ]);
    });

    it('shows a settlement’s fields and the movements it covers, with their CSV', async () => {
      const settlement = await api(`/settlements/${scene.settlementId}`);
      const page = await browser.get(`${BALANCE}/settlements/${scene.settlementId}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain(`<h1>Settlement of ${settlement.amount as string} USD</h1>`);
      expect(page.body).toContain(`<dt>Settlement ID</dt><dd><code>${scene.settlementId}</code></dd>`);
      expect(page.body).toContain('<dt>Status</dt><dd>Paid. Your bank has been paid.</dd>');
      expect(page.body).toContain('<dt>Trigger</dt><dd>Run by the operator</dd>');
      expect(page.body).toContain('<dt>Retained target when it started</dt><dd>50.00 USD</dd>');
      expect(page.body).toContain(`<time datetime="${settlement.paid_at as string}"`);
      const rows = tableRows(page, 'Movements it covers')!;
      expect(showing(page, 'movements')).toBe(
        `Showing 1–25 of ${settlement.transactions_total as number} movements`,
      );
      expect(rows.map((row) => row[2])).toEqual(
        (settlement.transactions as Row[]).slice(0, 25).map((row) => row.description),
      );
      const second = await browser.get(hrefOf(page, 'Next page')!);
      expect(tableRows(second, 'Movements it covers')!.map((row) => row[2])).toEqual(
        (settlement.transactions as Row[]).slice(25, 50).map((row) => row.description),
      );
      const csv = csvRecords((await browser.get(hrefOf(page, 'Download CSV')!)).body);
      expect(csv.slice(1).map((record) => record[0])).toEqual(
        (settlement.transactions as Row[]).map((row) => row.id),
      );
    });

    it('answers 404 for another account’s settlement, a malformed id and a settlement of the other environment', async () => {
      for (const id of [scene.other.settlementId, 'stl_000000000000000000000000', 'not-a-settlement']) {
        const page = await browser.get(`${BALANCE}/settlements/${id}`);
        expect({ id, status: page.status }).toEqual({ id, status: 404 });
        expect(page.body).toContain('<h1>Settlement not found</h1>');
        expect(page.body).not.toContain(scene.other.settlementId);
      }
      // Another account's settlement as a filter: no row of it, on the page or in the CSV.
      const filtered = await browser.get(`${BALANCE}?settlement_id=${scene.other.settlementId}`);
      expect(filtered.body).toContain('No balance transactions match this filter');
      expect(
        csvRecords((await browser.get(`${TRANSACTIONS_CSV}?settlement_id=${scene.other.settlementId}`)).body),
      ).toHaveLength(1);

      const production = await signIn(shop.adminToken, 'production');
      expect((await production.get(`${BALANCE}/settlements/${scene.settlementId}`)).status).toBe(404);
    });

    it('shows the other environment’s data after the switch: production’s one credit, no settlement', async () => {
      const production = await signIn(shop.adminToken, 'production');
      const page = await production.get(BALANCE);
      expect(page.status).toBe(200);
      expect(tableRows(page, 'Balance transactions')!.map((row) => [row[1], row[2], row[5]])).toEqual([
        ['Adjustment', 'Production float', '5.00 USD'],
      ]);
      expect(page.body).toContain('No settlements yet');
      expect(page.body).toContain('A settlement runs every day at 00:00 UTC');
      const csv = await production.get(TRANSACTIONS_CSV);
      expect(csv.headers['content-disposition']).toBe(
        'attachment; filename="balance-transactions-production.csv"',
      );
      expect(
        csvRecords(csv.body)
          .slice(1)
          .map((record) => record[12]),
      ).toEqual(['Production float']);
    });

    it('says what to do on an account with nothing yet', async () => {
      const fresh = await merchant(call, '0.00', { name: 'New Shop' });
      const newcomer = await signIn(fresh.adminToken, 'sandbox');
      const page = await newcomer.get(BALANCE);
      expect(page.body).toContain('No balance transactions yet');
      expect(page.body).toContain('No settlements yet');
      expect(page.body).not.toContain('Download CSV');
      const home = await newcomer.get('/dashboard');
      expect(home.body).toContain('Nothing waiting to clear');
      expect(figure(home, 'available_for_new_commitments')).toBe('0.00 USD');
      expect(csvRecords((await newcomer.get(TRANSACTIONS_CSV)).body)).toHaveLength(1);
    });

    it('sends a browser without a session to sign in, from every Balance address', async () => {
      const stranger = new PageBrowser(gateway.url);
      for (const path of [
        BALANCE,
        TRANSACTIONS_CSV,
        SETTLEMENTS_CSV,
        `${BALANCE}/settlements/${scene.settlementId}`,
      ]) {
        const answer = await stranger.get(path);
        expect({ path, status: answer.status, location: answer.headers.location }).toEqual({
          path,
          status: 303,
          location: '/dashboard',
        });
      }
    });
  });

  describe('a balance that cannot be calculated', () => {
    // Last in the file: it stops the projector, as test/e2e/api/balance-unavailable does.
    it('explains available: null with its reason, and what it means for payouts', async () => {
      const fresh = await merchant(call, '0.00', { name: 'Lagging Shop' });
      await gateway.app.get(ReadModelProjector).onModuleDestroy();
      const store = gateway.app.get<EventStore>(EVENT_STORE);
      const streamId = ledgerStreamId(fresh.accountId, 'sandbox');
      const { version } = await store.readStream(streamId);
      // Appended without the inline projection: the balance now trails its ledger beyond its bound.
      await store.append([
        {
          streamId,
          streamType: LEDGER_STREAM_TYPE,
          expectedVersion: version,
          events: Array.from({ length: 150 }, (_, i) => ({
            type: 'FundsCredited',
            schemaVersion: 1,
            data: {
              accountId: fresh.accountId,
              environment: 'sandbox',
              amount: '1.00',
              reference: `late-${i}`,
              reason: 'late credit',
              at: new Date().toISOString(),
            },
          })),
        },
      ]);
      const balance = await call('GET', '/sandbox/api/payout/balance', { token: fresh.token });
      expect(balance.body).toEqual({ currency: 'USD', available: null, reason: expect.any(String) });

      const home = await (await signIn(fresh.adminToken, 'sandbox')).get('/dashboard');
      expect(home.status).toBe(200);
      expect(home.body).toContain(
        `The balance cannot be calculated right now: <strong>${balance.body.reason as string}</strong>.`,
      );
      expect(home.body).toContain('Get Payout Balance answers <code>available: null</code> with this reason');
      expect(home.body).toContain('Create Payout is refused with <code>balance_unavailable</code>');
      // No figure is guessed meanwhile, the next settlement's neither.
      expect(figure(home, 'pending')).toBeUndefined();
      expect(figure(home, 'estimated_next_settlement')).toBeUndefined();
      expect(home.body).toContain('The next settlement cannot be estimated meanwhile.');
    });
  });
});
