import type { AccountsRepository } from '@payouts/accounts';
import { formatLocalTime } from '@payouts/web';
import { ACCOUNTS } from '../../../apps/api-gateway/src/gateway.tokens';
import { Call, client, merchant, Merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import { TestingGateway } from '../api/testing-gateway';
import { recipientClient } from '../recipient/recipient-client';
import { startDashboardGateway, TestClock } from './dashboard-harness';
import { PageAnswer, PageBrowser } from './page-browser';

const LIST = '/dashboard/send-payouts';
const NEW = '/dashboard/send-payouts/new';
const RETURN_URL = 'https://shop.example.com/done';
const TIME_ZONE = 'America/New_York';
const operator = { token: OPERATOR_TOKEN };

/** The hidden fields (CSRF token, idempotency key) of the page's form posting to `action`. */
function hiddenFields(page: PageAnswer, action: string): Record<string, string> {
  const start = page.body.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action} (status ${page.status})`);
  const form = page.body.slice(start, page.body.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[name!] = value!;
  }
  return fields;
}

const keyOf = (page: PageAnswer, action: string) => hiddenFields(page, action)['idempotency_key'];
const payoutIdIn = (location: unknown) =>
  /\/dashboard\/send-payouts\/(po_[0-9a-f]{24})\?/.exec(String(location))![1]!;
const claimLinkIn = (page: PageAnswer) => /id="copy-claim_link"[^>]*value="([^"]+)"/.exec(page.body)?.[1];
const timelineTitles = (page: PageAnswer) =>
  [...page.body.matchAll(/<p class="timeline-title">([^<]+)<\/p>/g)].map(([, title]) => title!);

/**
 * Send payouts over real HTTP (docs/dashboard.md#send-payouts): the list with List Payouts'
 * filters, the form that creates a link payout through Create Payout's rules and idempotency, and
 * a payout's page with its link, rotation, cancel and history. Every refusal is shown and changes
 * nothing; another account's or environment's payout is not found.
 */
describe('dashboard Send payouts (real HTTP)', () => {
  const clock = new TestClock();
  let gateway: TestingGateway;
  let call: Call;
  /** Funded in the sandbox (100.00), payouts on there; production off and unfunded. */
  let shop: Merchant;
  /** The harness's account: approved, never funded. */
  let unfunded: Merchant;
  let browser: PageBrowser;
  const recipient = recipientClient(() => gateway.url);
  let first: string;

  async function signIn(adminToken: string, environment: 'production' | 'sandbox' = 'sandbox') {
    const page = new PageBrowser(gateway.url);
    expect((await page.submit('/dashboard', '/dashboard/sign-in', { admin_token: adminToken })).status).toBe(
      303,
    );
    if (environment === 'sandbox') await switchTo(page, 'sandbox');
    return page;
  }

  async function switchTo(page: PageBrowser, environment: 'production' | 'sandbox') {
    const switched = await page.submit('/dashboard', '/dashboard/environment', {
      environment,
      return_to: '/dashboard',
    });
    expect(switched.status).toBe(303);
  }

  /** Renders `pagePath`, then posts its form for `action` with its own hidden fields and `fields`. */
  async function sendForm(
    page: PageBrowser,
    pagePath: string,
    action: string,
    fields: Record<string, string> = {},
  ) {
    const form = await page.get(pagePath);
    expect(form.status).toBe(200);
    return page.post(action, { ...hiddenFields(form, action), ...fields });
  }

  const linkForm = (reference: string, amount = '10.00') => ({
    amount,
    currency: 'USD',
    customer_email: `${reference}@example.com`,
    merchant_reference: reference,
  });

  const apiPayout = async (id: string, who = shop) =>
    (await call('GET', `/sandbox/api/payout/${id}`, { token: who.token })).body;
  const apiTotal = async (query = '') =>
    (await call('GET', `/sandbox/api/payout/list?${query}`, { token: shop.token })).body.total as number;
  const available = async () =>
    (await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body
      .available_for_new_commitments as string;
  const setPayoutsEnabled = async (who: Merchant, environment: string, enabled: boolean) =>
    expect(
      (
        await call('PUT', '/dashboard/payouts-enabled', {
          token: who.adminToken,
          body: { environment, enabled },
        })
      ).status,
    ).toBe(200);

  /** A redirect payout made through the API, for what the form never makes. */
  async function apiRedirectPayout(reference: string, customerId: string): Promise<string> {
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: {
        amount: '5.00',
        merchant_reference: reference,
        delivery: 'redirect',
        customer_id: customerId,
        return_url: RETURN_URL,
      },
    });
    expect(created.status).toBe(201);
    return created.body.payout_id;
  }

  beforeAll(async () => {
    ({ gateway, shop: unfunded } = await startDashboardGateway(clock, 'Unfunded Shop'));
    call = client(gateway.url);
    shop = await merchant(call, '100.00', { name: 'Corner Shop', origins: ['https://shop.example.com'] });
    await gateway.app
      .get<typeof ACCOUNTS, AccountsRepository>(ACCOUNTS, { strict: false })
      .setTimeZone(shop.accountId, TIME_ZONE);
    browser = await signIn(shop.adminToken);
  });
  afterAll(() => gateway?.close());

  it('sends a browser without a session to sign in', async () => {
    const stranger = new PageBrowser(gateway.url);
    for (const path of [LIST, NEW, `${LIST}/po_${'0'.repeat(24)}`]) {
      const answer = await stranger.get(path);
      expect([path, answer.status, answer.headers.location]).toEqual([path, 303, '/dashboard']);
    }
  });

  it('shows an empty list that says what to do, and the form with the balance and a new key per render', async () => {
    const list = await browser.get(LIST);
    expect(list.status).toBe(200);
    expect(list.body).toContain('<title>Send payouts · Payouts</title>');
    expect(list.body).toContain('<a href="/dashboard/send-payouts" aria-current="page">Send payouts</a>');
    expect(list.body).toContain('No payouts yet');
    expect(list.body).toContain(`<a href="${NEW}">Send a payout</a>`);
    expect(list.body).not.toContain('<table');

    const form = await browser.get(NEW);
    expect(form.status).toBe(200);
    for (const field of ['amount', 'currency', 'customer_email', 'merchant_reference', 'description']) {
      expect(form.body).toContain(`<label for="field-${field}">`);
    }
    expect(form.body).toContain('100.00 USD');
    expect(form.body).toContain('0.50 USD');
    expect(form.body).toContain('1.00 to 5000.00 USD');
    const again = await browser.get(NEW);
    expect(keyOf(form, NEW)).toMatch(/^dash_[A-Za-z0-9_-]{22}$/);
    expect(keyOf(again, NEW)).not.toBe(keyOf(form, NEW));
  });

  it('creates a link payout from the form: source dashboard, and its page with fields, link and history in the account’s time zone', async () => {
    const created = await sendForm(browser, NEW, NEW, {
      ...linkForm('refund-1', '25.00'),
      description: 'Refund for order 1',
    });
    expect(created.status).toBe(303);
    expect(created.headers.location).toMatch(
      /^\/dashboard\/send-payouts\/po_[0-9a-f]{24}\?notice=payout_created$/,
    );
    first = payoutIdIn(created.headers.location);

    const view = await apiPayout(first);
    expect(view).toMatchObject({
      status: 'awaiting_choice',
      amount: '25.00',
      total_reserved: '25.50',
      source: 'dashboard',
      delivery: 'link',
      merchant_reference: 'refund-1',
    });
    expect(await available()).toBe('74.50');

    const page = await browser.get(String(created.headers.location));
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Payout details · Payouts</title>');
    expect(page.body).toContain(`<dd><span class="send-payouts-id">${first}</span></dd>`);
    expect(page.body).toContain('Payout created: its amount and fee are reserved.');
    expect(page.body).toContain('<dd>25.50 USD</dd>');
    expect(page.body).toContain('<dd>dashboard</dd>');
    expect(page.body).toContain('<dd>refund-1</dd>');
    expect(page.body).toContain(formatLocalTime(view.created_at, TIME_ZONE));
    expect(page.body).toContain(`<time datetime="${view.created_at}"`);
    expect(timelineTitles(page)).toEqual([
      'Payout created in the dashboard: 25.50 USD reserved (amount plus fee)',
      'Claim link issued',
    ]);
    const link = claimLinkIn(page)!;
    expect(link).toMatch(new RegExp(`/sandbox/claim/${first}\\.[A-Za-z0-9_-]{43}$`));
    // The link shown is the payout's own: it opens the recipient's pages.
    expect((await fetch(recipient.local(link), { redirect: 'manual' })).status).toBe(303);
    // Shown again, the same link, and nothing written.
    expect(claimLinkIn(await browser.get(`${LIST}/${first}`))).toBe(link);
  });

  it('creates one payout when the same rendered form is sent twice, one after the other or both at once', async () => {
    const form = await browser.get(NEW);
    const fields = { ...hiddenFields(form, NEW), ...linkForm('refund-2') };
    const once = await browser.post(NEW, fields);
    const twice = await browser.post(NEW, fields);
    expect(once.status).toBe(303);
    expect(twice.status).toBe(303);
    expect(twice.headers.location).toBe(once.headers.location);

    const other = await browser.get(NEW);
    const both = { ...hiddenFields(other, NEW), ...linkForm('refund-3') };
    const [a, b] = await Promise.all([browser.post(NEW, both), browser.post(NEW, both)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(b.headers.location).toBe(a.headers.location);

    expect(await apiTotal('merchant_reference=refund-2')).toBe(1);
    expect(await apiTotal('merchant_reference=refund-3')).toBe(1);
    expect(await available()).toBe('53.50');
  });

  it.each([
    ['a bad amount', { amount: '12.345' }, 'Check the amount.', 'amount'],
    ['an amount over the limit', { amount: '6000.00' }, 'amount must be between 1.00 and 5000.00', 'amount'],
    ['too little balance', { amount: '60.00' }, 'The balance is not enough for this payout', null],
    [
      'a used merchant reference',
      { merchant_reference: 'refund-1' },
      'Another payout already has this merchant reference.',
      'merchant_reference',
    ],
    [
      'a bad e-mail address',
      { customer_email: 'ana@' },
      'customer_email is not a valid e-mail address',
      'customer_email',
    ],
    ['an unknown currency', { currency: 'EUR' }, 'Payouts are sent in USD only.', 'currency'],
  ])(
    'refuses %s with the form again, its values kept, and creates nothing',
    async (_label, change, text, field) => {
      const [total, before] = [await apiTotal(), await available()];
      const form = await browser.get(NEW);
      const sent: Record<string, string> = {
        ...hiddenFields(form, NEW),
        ...linkForm('refused-1', '10.00'),
        ...change,
      };
      const refused = await browser.post(NEW, sent);
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('role="alert"');
      expect(refused.body).toContain(text);
      if (field) expect(refused.body).toContain(`id="field-${field}-error"`);
      for (const name of ['amount', 'customer_email', 'merchant_reference'] as const) {
        expect(refused.body).toContain(`value="${sent[name]}"`);
      }
      // The refusal stays with the key sent; the form comes back with a new one.
      expect(keyOf(refused, NEW)).not.toBe(sent['idempotency_key']);
      expect([await apiTotal(), await available()]).toEqual([total, before]);
    },
  );

  it('keeps a refusal for its form’s key, and the form shown again works once fixed', async () => {
    const form = await browser.get(NEW);
    const sent = { ...hiddenFields(form, NEW), ...linkForm('refund-4', '60.00') };
    const refused = await browser.post(NEW, sent);
    expect(refused.status).toBe(400);
    // The same form sent again: the same refusal, even with the amount fixed (the key was used).
    const replayed = await browser.post(NEW, sent);
    expect(replayed.status).toBe(400);
    expect(replayed.body).toContain('The balance is not enough for this payout');
    const reused = await browser.post(NEW, { ...sent, amount: '5.00' });
    expect(reused.status).toBe(400);
    expect(reused.body).toContain('This form was already sent with other values.');
    expect(await apiTotal('merchant_reference=refund-4')).toBe(0);

    const fixed = await browser.post(NEW, { ...hiddenFields(refused, NEW), ...linkForm('refund-4', '5.00') });
    expect(fixed.status).toBe(303);
    expect(await apiTotal('merchant_reference=refund-4')).toBe(1);
  });

  it('refuses while payouts are switched off (production) or the account is not approved, saying so up front', async () => {
    const production = await signIn(shop.adminToken, 'production');
    const form = await production.get(NEW);
    expect(form.body).toContain('Payouts are switched off for this environment');
    const refused = await production.post(NEW, { ...hiddenFields(form, NEW), ...linkForm('prod-1') });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('role="alert"');
    expect(refused.body).toContain('Payouts are switched off for this environment');
    expect(refused.body).toContain('href="/dashboard/settings"');
    expect((await production.get(LIST)).body).toContain('No payouts yet');

    // An account the operator has not approved (or has withdrawn the approval of).
    const withdrawn = await call('POST', `/operator/accounts/${unfunded.accountId}/payouts-approval`, {
      ...operator,
      body: { approved: false },
    });
    expect(withdrawn.status).toBe(200);
    const other = await signIn(unfunded.adminToken);
    const form2 = await other.get(NEW);
    expect(form2.body).toContain('This account is not approved for payouts yet');
    const unapproved = await other.post(NEW, { ...hiddenFields(form2, NEW), ...linkForm('unapproved-1') });
    expect(unapproved.status).toBe(400);
    expect(unapproved.body).toContain('role="alert"');
    expect(unapproved.body).toContain('This account is not approved for payouts yet');
    expect((await other.get(LIST)).body).toContain('No payouts yet');
  });

  it('lists the payouts newest first with their total, List Payouts’ filters, the search and pages', async () => {
    await apiRedirectPayout('redirect-1', 'cust-1');
    const all = await browser.get(LIST);
    expect(all.status).toBe(200);
    expect(all.body).toContain('Showing 1–5 of 5 payouts');
    expect(all.body).toContain(`<a href="${LIST}/${first}" class="send-payouts-id">${first}</a>`);
    const references = [...all.body.matchAll(/<td>(refund-\d|redirect-1)<\/td>/g)].map(([, r]) => r);
    // Newest first (refund-2 and refund-3 may share a millisecond, so their order is not asserted).
    expect(references).toEqual([
      'redirect-1',
      'refund-4',
      expect.any(String),
      expect.any(String),
      'refund-1',
    ]);
    expect(all.body).toContain('<td>cust-1</td>');
    expect(all.body).toContain('<td class="numeric">25.00 USD</td>');

    const search = await browser.get(`${LIST}?merchant_reference=refund-2&status=&since=`);
    expect(search.status).toBe(200);
    expect(search.body).toContain('Showing 1–1 of 1 payouts');
    expect(search.body).toContain('value="refund-2"');

    const bound = await browser.get(`${LIST}?customer_id=cust-1&status=awaiting_choice`);
    expect(bound.body).toContain('Showing 1–1 of 1 payouts');
    expect(bound.body).toContain('<option value="awaiting_choice" selected>');

    const later = await browser.get(`${LIST}?since=2999-01-01`);
    expect(later.body).toContain('No payouts match these filters');
    const today = new Date().toISOString().slice(0, 10);
    expect((await browser.get(`${LIST}?until=${today}`)).body).toContain('No payouts match these filters');
    expect((await browser.get(`${LIST}?since=${today}`)).body).toContain('Showing 1–5 of 5 payouts');

    const badDate = await browser.get(`${LIST}?since=31-12-2030`);
    expect(badDate.status).toBe(400);
    expect(badDate.body).toContain('id="field-since-error"');
    expect(badDate.body).not.toContain('<table');
    const badStatus = await browser.get(`${LIST}?status=lost`);
    expect(badStatus.status).toBe(400);
    expect(badStatus.body).toContain('status must be one of awaiting_choice');

    const paged = await browser.get(`${LIST}?limit=2&merchant_reference=`);
    expect(paged.body).toContain('Showing 1–2 of 5 payouts');
    const next = /<a href="([^"]+)">Next page<\/a>/.exec(paged.body)![1]!.replace(/&amp;/g, '&');
    expect(next).toBe(`${LIST}?limit=2&offset=2`);
    const second = await browser.get(next);
    expect(second.body).toContain('Showing 3–4 of 5 payouts');
    expect(second.body).toContain(`<a href="${LIST}?limit=2">Previous page</a>`);
  });

  it('rotates the link: the old link stops working, and the same form sent twice rotates once', async () => {
    const page = await browser.get(`${LIST}/${first}`);
    const old = claimLinkIn(page)!;
    const action = `${LIST}/${first}/rotate-link`;
    const fields = hiddenFields(page, action);
    const rotated = await browser.post(action, fields);
    expect([rotated.status, rotated.headers.location]).toEqual([303, `${LIST}/${first}?notice=link_rotated`]);
    expect((await browser.post(action, fields)).headers.location).toBe(rotated.headers.location);

    const after = await browser.get(String(rotated.headers.location));
    expect(after.body).toContain('the old link, its codes and its sessions stopped working');
    const current = claimLinkIn(after)!;
    expect(current).not.toBe(old);
    expect((await fetch(recipient.local(old), { redirect: 'manual' })).status).not.toBe(303);
    expect((await fetch(recipient.local(current), { redirect: 'manual' })).status).toBe(303);
    expect(timelineTitles(after).filter((title) => title.startsWith('Claim link'))).toEqual([
      'Claim link issued',
      'Claim link rotated: the earlier link stopped working',
    ]);
  });

  it('cancels: the money returns, the same form sent twice cancels once, and the page offers no more actions', async () => {
    const before = await available();
    const page = await browser.get(`${LIST}/${first}`);
    const action = `${LIST}/${first}/cancel`;
    const fields = hiddenFields(page, action);
    const cancelled = await browser.post(action, fields);
    expect([cancelled.status, cancelled.headers.location]).toEqual([
      303,
      `${LIST}/${first}?notice=payout_cancelled`,
    ]);
    expect((await browser.post(action, fields)).headers.location).toBe(cancelled.headers.location);
    expect(await apiPayout(first)).toMatchObject({ status: 'cancelled', funds_released: true });
    expect(await available()).toBe((Number(before) + 25.5).toFixed(2));

    const after = await browser.get(String(cancelled.headers.location));
    expect(after.body).toContain('Payout cancelled: its amount and fee returned to the balance.');
    expect(after.body).toContain('<dd>Cancelled (cancelled)</dd>');
    expect(after.body).not.toContain(action);
    expect(after.body).not.toContain(`${LIST}/${first}/rotate-link`);
    expect(claimLinkIn(after)).toBeUndefined();
    expect(timelineTitles(after).at(-1)).toBe('Cancelled: amount and fee returned to the balance');
    expect((await browser.get(`${LIST}?status=cancelled`)).body).toContain('Showing 1–1 of 1 payouts');
  });

  it('shows the refusals of rotate and cancel on the payout page, and changes nothing', async () => {
    // A page rendered before the payout was cancelled: its rotate form is refused.
    const open = payoutIdIn((await sendForm(browser, NEW, NEW, linkForm('refund-5'))).headers.location);
    const stale = await browser.get(`${LIST}/${open}`);
    await sendForm(browser, `${LIST}/${open}`, `${LIST}/${open}/cancel`);
    const events = timelineTitles(await browser.get(`${LIST}/${open}`)).length;
    const notResumable = await browser.post(
      `${LIST}/${open}/rotate-link`,
      hiddenFields(stale, `${LIST}/${open}/rotate-link`),
    );
    expect(notResumable.status).toBe(400);
    expect(notResumable.body).toContain(
      'This payout has ended. The payout is cancelled; its link cannot be rotated.',
    );
    expect(timelineTitles(notResumable)).toHaveLength(events);

    // Confirmed by the recipient: cancel is refused.
    const confirmed = await apiRedirectPayout('redirect-2', 'cust-2');
    const confirmedPage = await browser.get(`${LIST}/${confirmed}`);
    const session = await call('POST', `/sandbox/api/payout/${confirmed}/session`, {
      token: shop.token,
      key: newKey(),
      body: { customer_id: 'cust-2' },
    });
    const { cookie, csrf } = await recipient.open(session.body.payout_url);
    await recipient.post('/sandbox/recipient/details', cookie, {
      csrf_token: csrf,
      method: 'wallet',
      wallet_handle: 'review@example.com',
    });
    expect((await recipient.post('/sandbox/recipient/confirm', cookie, { csrf_token: csrf })).status).toBe(
      303,
    );
    const cancel = `${LIST}/${confirmed}/cancel`;
    const notCancellable = await browser.post(cancel, hiddenFields(confirmedPage, cancel));
    expect(notCancellable.status).toBe(400);
    expect(notCancellable.body).toContain('This payout can no longer be cancelled.');
    expect(await apiPayout(confirmed)).toMatchObject({
      funds_released: false,
      accepted_at: expect.any(String),
    });

    // A redirect payout has no claim link to rotate (a form it never shows).
    const redirect = await apiRedirectPayout('redirect-3', 'cust-3');
    const redirectPage = await browser.get(`${LIST}/${redirect}`);
    expect(redirectPage.body).not.toContain('Claim link');
    const wrong = await browser.post(`${LIST}/${redirect}/rotate-link`, {
      ...hiddenFields(redirectPage, `${LIST}/${redirect}/cancel`),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('This payout has no claim link: it is a redirect payout.');

    // Payouts switched off: cancel and rotate are refused, as the API refuses them.
    const refund6 = payoutIdIn((await sendForm(browser, NEW, NEW, linkForm('refund-6'))).headers.location);
    const refund6Page = await browser.get(`${LIST}/${refund6}`);
    await setPayoutsEnabled(shop, 'sandbox', false);
    try {
      for (const action of [`${LIST}/${refund6}/cancel`, `${LIST}/${refund6}/rotate-link`]) {
        const off = await browser.post(action, hiddenFields(refund6Page, action));
        expect([action, off.status]).toEqual([action, 400]);
        expect(off.body).toContain('Payouts are switched off for this environment');
      }
    } finally {
      await setPayoutsEnabled(shop, 'sandbox', true);
    }
    expect(timelineTitles(await browser.get(`${LIST}/${refund6}`))).toHaveLength(2);
    expect(await apiPayout(refund6)).toMatchObject({ status: 'awaiting_choice', funds_released: false });

    // A form without its key (it has expired).
    const { idempotency_key: _key, ...keyless } = hiddenFields(refund6Page, `${LIST}/${refund6}/cancel`);
    const expired = await browser.post(`${LIST}/${refund6}/cancel`, keyless);
    expect(expired.status).toBe(400);
    expect(expired.body).toContain('This form has expired.');
    expect(await apiPayout(refund6)).toMatchObject({ status: 'awaiting_choice' });
  });

  it('answers 404 for another account’s payout, the other environment’s and a malformed id, and changes nothing', async () => {
    const refund6 = (
      await call('GET', '/sandbox/api/payout/list?merchant_reference=refund-6', { token: shop.token })
    ).body.data[0].payout_id as string;
    const page = await browser.get(`${LIST}/${refund6}`);
    const cancel = `${LIST}/${refund6}/cancel`;
    const fields = hiddenFields(page, cancel);

    const other = await signIn(unfunded.adminToken);
    const token = PageBrowser.csrfToken(await other.get(LIST));
    const theirs = await other.get(`${LIST}/${refund6}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toContain('<title>Payout not found · Payouts</title>');
    expect(theirs.body).not.toContain('refund-6');
    for (const action of [cancel, `${LIST}/${refund6}/rotate-link`]) {
      const answer = await other.post(action, { ...fields, _csrf: token });
      expect([action, answer.status]).toEqual([action, 404]);
    }

    await switchTo(browser, 'production');
    try {
      expect((await browser.get(`${LIST}/${refund6}`)).status).toBe(404);
      expect(
        (await browser.post(cancel, { ...fields, _csrf: PageBrowser.csrfToken(await browser.get(LIST)) }))
          .status,
      ).toBe(404);
    } finally {
      await switchTo(browser, 'sandbox');
    }
    expect((await browser.get(`${LIST}/po_nothing`)).status).toBe(404);
    expect((await browser.get(`${LIST}/po_${'0'.repeat(24)}`)).status).toBe(404);
    expect(await apiPayout(refund6)).toMatchObject({ status: 'awaiting_choice', funds_released: false });
  });

  it('shows each environment its own payouts', async () => {
    await setPayoutsEnabled(shop, 'production', true);
    const funded = await call('POST', `/operator/accounts/${shop.accountId}/funds`, {
      ...operator,
      body: { environment: 'production', amount: '50.00' },
    });
    expect(funded.status).toBe(200);
    await switchTo(browser, 'production');
    try {
      const created = await sendForm(browser, NEW, NEW, linkForm('live-1'));
      expect(created.status).toBe(303);
      const live = payoutIdIn(created.headers.location);
      const livePage = await browser.get(`${LIST}/${live}`);
      expect(claimLinkIn(livePage)).toMatch(new RegExp(`/claim/${live}\\.`));
      expect(claimLinkIn(livePage)).not.toContain('/sandbox/');
      const list = await browser.get(LIST);
      expect(list.body).toContain('Showing 1–1 of 1 payouts');
      expect(list.body).toContain('<td>live-1</td>');
      await switchTo(browser, 'sandbox');
      const sandbox = await browser.get(LIST);
      expect(sandbox.body).not.toContain('live-1');
      expect(sandbox.body).toContain('<td>refund-1</td>');
      expect((await browser.get(`${LIST}/${live}`)).status).toBe(404);
    } finally {
      await switchTo(browser, 'sandbox');
    }
  });
});
