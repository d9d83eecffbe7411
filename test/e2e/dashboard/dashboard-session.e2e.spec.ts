import { client, Gateway, merchant, startGateway } from '../api/gateway-harness';
import { TestingGateway } from '../api/testing-gateway';
import { MINUTE, startDashboardGateway, TestClock } from './dashboard-harness';
import { PageAnswer, PageBrowser, setCookieLine } from './page-browser';

const signedIn = (page: PageAnswer) =>
  page.status === 200 && page.body.includes('<title>Home · Payouts</title>');
const signInForm = (page: PageAnswer) =>
  page.status === 200 && page.body.includes('<title>Sign in · Payouts</title>');

async function signIn(browser: PageBrowser, adminToken: string): Promise<PageAnswer> {
  return browser.submit('/dashboard', '/dashboard/sign-in', { admin_token: adminToken });
}

describe('dashboard sign-in and session (real HTTP, moved clock)', () => {
  const clock = new TestClock();
  let gateway: TestingGateway;
  let adminToken: string;

  beforeAll(async () => {
    ({
      gateway,
      shop: { adminToken },
    } = await startDashboardGateway(clock, 'Corner <Shop> & Co'));
  });
  afterAll(() => gateway?.close());

  it('shows the sign-in page with the pages’ strict headers to someone not signed in', async () => {
    const page = await new PageBrowser(gateway.url).get('/dashboard');
    expect(signInForm(page)).toBe(true);
    expect(page.body.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(page.body).toContain('<meta charset="utf-8"/>');
    expect(page.body).toContain('name="viewport"');
    expect(page.body).toMatch(/<label for="field-admin_token">Admin token<\/label>/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['strict-transport-security']).toBeUndefined();
    expect(setCookieLine(page, 'dashboard_csrf')).toMatch(/HttpOnly/);
  });

  it('signs in with the admin token to an HttpOnly, SameSite=Strict cookie on /dashboard (not Secure on http)', async () => {
    const browser = new PageBrowser(gateway.url);
    const answer = await signIn(browser, adminToken);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/dashboard');
    const cookie = setCookieLine(answer, 'dashboard_session')!;
    expect(cookie).toMatch(/^dashboard_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; Path=\/dashboard(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
    expect(cookie).toMatch(/; SameSite=Strict(;|$)/);
    expect(cookie).not.toMatch(/Secure/);
    expect(cookie).not.toMatch(/Max-Age|Expires/);
    const home = await browser.get('/dashboard');
    expect(signedIn(home)).toBe(true);
    // The account's name, escaped: the renderer escapes every text (a bare > is harmless there).
    expect(home.body).toContain('Corner &lt;Shop> &amp; Co');
    expect(home.body).not.toContain('<Shop');
  });

  it('refuses a wrong admin token with the form again (401) and no session', async () => {
    const browser = new PageBrowser(gateway.url, '127.0.0.9');
    const answer = await signIn(browser, `adm_${'0'.repeat(48)}`);
    expect(answer.status).toBe(401);
    expect(answer.body).toContain('That admin token is not valid.');
    expect(answer.body).toContain('aria-invalid="true"');
    expect(setCookieLine(answer, 'dashboard_session')).toBeUndefined();
    expect(signInForm(await browser.get('/dashboard'))).toBe(true);
  });

  it('refuses an empty admin token (400) without counting it', async () => {
    const browser = new PageBrowser(gateway.url, '127.0.0.9');
    const answer = await signIn(browser, '   ');
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('Enter your admin token.');
  });

  it('keeps a session alive while it is used (sliding) and ends it after 30 idle minutes', async () => {
    const browser = new PageBrowser(gateway.url);
    await signIn(browser, adminToken);
    clock.advance(29 * MINUTE);
    expect(signedIn(await browser.get('/dashboard'))).toBe(true);
    clock.advance(29 * MINUTE);
    expect(signedIn(await browser.get('/dashboard'))).toBe(true);
    clock.advance(30 * MINUTE);
    expect(signInForm(await browser.get('/dashboard'))).toBe(true);
  });

  it('ends the session on sign-out: the same cookie, replayed from elsewhere, opens nothing', async () => {
    const browser = new PageBrowser(gateway.url);
    await signIn(browser, adminToken);
    const stolen = browser.cookies.get('dashboard_session')!;
    const thief = new PageBrowser(gateway.url);
    thief.cookies.set('dashboard_session', stolen);
    expect(signedIn(await thief.get('/dashboard'))).toBe(true);

    const out = await browser.submit('/dashboard', '/dashboard/sign-out', {});
    expect(out.status).toBe(303);
    expect(setCookieLine(out, 'dashboard_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(signInForm(await browser.get('/dashboard'))).toBe(true);

    thief.cookies.set('dashboard_session', stolen);
    expect(signInForm(await thief.get('/dashboard'))).toBe(true);
    // Nor can it switch the environment (with a CSRF token of its own).
    const switched = await thief.submit('/dashboard', '/dashboard/environment', { environment: 'sandbox' });
    expect(switched.status).toBe(303);
    thief.cookies.set('dashboard_session', stolen);
    expect(signInForm(await thief.get('/dashboard'))).toBe(true);
  });

  it('shows production by default and keeps the switched environment in the session, sandbox marked as test data', async () => {
    const browser = new PageBrowser(gateway.url);
    await signIn(browser, adminToken);
    const production = await browser.get('/dashboard');
    expect(production.body).toContain('value="production" aria-pressed="true"');
    expect(production.body).not.toContain('test data');

    const switched = await browser.submit('/dashboard', '/dashboard/environment', {
      environment: 'sandbox',
      return_to: '/dashboard',
    });
    expect(switched.status).toBe(303);
    expect(switched.headers.location).toBe('/dashboard');
    const sandbox = await browser.get('/dashboard');
    expect(sandbox.body).toContain('value="sandbox" aria-pressed="true"');
    expect(sandbox.body).toContain('<body class="sandbox">');
    expect(sandbox.body).toContain('Sandbox: test data.');
    // Another browser signed in to the same account has its own environment.
    const other = new PageBrowser(gateway.url);
    await signIn(other, adminToken);
    expect((await other.get('/dashboard')).body).toContain('value="production" aria-pressed="true"');
  });

  it('refuses an unknown environment (400 page) and a return path outside the dashboard', async () => {
    const browser = new PageBrowser(gateway.url);
    await signIn(browser, adminToken);
    const bad = await browser.submit('/dashboard', '/dashboard/environment', { environment: 'staging' });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
    const elsewhere = await browser.submit('/dashboard', '/dashboard/environment', {
      environment: 'sandbox',
      return_to: '//evil.example/dashboard',
    });
    expect(elsewhere.headers.location).toBe('/dashboard');
  });

  it('shows the layout’s navigation, skip link and main landmark', async () => {
    const browser = new PageBrowser(gateway.url);
    await signIn(browser, adminToken);
    const home = (await browser.get('/dashboard')).body;
    const labels = [...home.matchAll(/<nav[^>]*>(.*?)<\/nav>/gs)].flatMap(([, nav]) =>
      [...nav!.matchAll(/<a [^>]*>([^<]+)<\/a>/g)].map(([, label]) => label),
    );
    expect(labels).toEqual(['Home', 'Send payouts', 'Payments', 'Balance', 'Settings', 'API integration']);
    expect(home).toContain('<a class="skip-link" href="#main">');
    expect(home).toContain('<main id="main" tabindex="-1">');
    expect(home).toContain('<a href="/dashboard" aria-current="page">Home</a>');
  });

  it('serves the one stylesheet, cacheable', async () => {
    const css = await new PageBrowser(gateway.url).get('/dashboard/assets/dashboard.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=3600');
    expect(css.body).toContain('.test-data-banner');
  });
});

describe('dashboard pages beside the JSON API (the real bootstrap)', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway('pglite', { PUBLIC_BASE_URL: 'https://pay.example.com' });
  });
  afterAll(() => gateway?.close());

  it('marks both cookies Secure and sends HSTS when PUBLIC_BASE_URL is https', async () => {
    const { adminToken } = await merchant(client(gateway.url), '0.00');
    const browser = new PageBrowser(gateway.url);
    const page = await browser.get('/dashboard');
    expect(setCookieLine(page, 'dashboard_csrf')).toMatch(/; Secure(;|$)/);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    const answer = await browser.post('/dashboard/sign-in', {
      admin_token: adminToken,
      _csrf: PageBrowser.csrfToken(page),
    });
    expect(answer.status).toBe(303);
    expect(setCookieLine(answer, 'dashboard_session')).toMatch(/; Secure(;|$)/);
  });

  it('leaves the JSON API as it was: form bodies still 415 there, pages absent from the OpenAPI document', async () => {
    const call = client(gateway.url);
    const { adminToken } = await merchant(call, '0.00');
    const form = await call('POST', '/dashboard/credentials', {
      token: adminToken,
      rawBody: 'kind=payout',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect(form.headers.get('content-security-policy')).toBeNull();
    const openapi = await call('GET', '/openapi.json');
    const paths = Object.keys(openapi.body.paths as Record<string, unknown>);
    expect(
      paths.filter((path) => /^\/dashboard(\/(sign-in|sign-out|environment|assets\/.*))?$/.test(path)),
    ).toEqual([]);
  });
});
