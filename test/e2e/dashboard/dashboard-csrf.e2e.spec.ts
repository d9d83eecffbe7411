import { TestingGateway } from '../api/testing-gateway';
import { startDashboardGateway, TestClock } from './dashboard-harness';
import { PageAnswer, PageBrowser, setCookieLine } from './page-browser';

const isHome = (page: PageAnswer) => page.body.includes('<title>Home · Payouts</title>');

/** Every dashboard form carries a CSRF token; a POST without the right one is refused, nothing done. */
describe('dashboard CSRF check (real HTTP)', () => {
  let gateway: TestingGateway;
  let adminToken: string;

  beforeAll(async () => {
    ({
      gateway,
      shop: { adminToken },
    } = await startDashboardGateway(new TestClock()));
  });
  afterAll(() => gateway?.close());

  function expectRefused(answer: PageAnswer) {
    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('This form has expired');
    expect(answer.body).toContain('Nothing was changed.');
    expect(String(answer.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  }

  async function signedIn(): Promise<PageBrowser> {
    const browser = new PageBrowser(gateway.url);
    const answer = await browser.submit('/dashboard', '/dashboard/sign-in', { admin_token: adminToken });
    expect(answer.status).toBe(303);
    return browser;
  }

  it('refuses a sign-in with the right admin token but no CSRF token, or no CSRF cookie: no session', async () => {
    const browser = new PageBrowser(gateway.url);
    await browser.get('/dashboard');
    const noToken = await browser.post('/dashboard/sign-in', { admin_token: adminToken });
    expectRefused(noToken);
    expect(setCookieLine(noToken, 'dashboard_session')).toBeUndefined();

    const token = PageBrowser.csrfToken(await browser.get('/dashboard'));
    const noCookie = new PageBrowser(gateway.url);
    const answer = await noCookie.post('/dashboard/sign-in', { admin_token: adminToken, _csrf: token });
    expectRefused(answer);
    expect(setCookieLine(answer, 'dashboard_session')).toBeUndefined();
  });

  it('refuses a wrong CSRF token, and one made for another browser', async () => {
    const browser = new PageBrowser(gateway.url);
    const mine = PageBrowser.csrfToken(await browser.get('/dashboard'));
    expectRefused(await browser.post('/dashboard/sign-in', { admin_token: adminToken, _csrf: `${mine}x` }));
    const other = new PageBrowser(gateway.url);
    const theirs = PageBrowser.csrfToken(await other.get('/dashboard'));
    expectRefused(await browser.post('/dashboard/sign-in', { admin_token: adminToken, _csrf: theirs }));
    expect(browser.cookies.has('dashboard_session')).toBe(false);
  });

  it('refuses a sign-out without the token: the session lives on', async () => {
    const browser = await signedIn();
    expectRefused(await browser.post('/dashboard/sign-out', {}));
    expect(isHome(await browser.get('/dashboard'))).toBe(true);
  });

  it('refuses an environment switch with a wrong token: the environment stays production', async () => {
    const browser = await signedIn();
    expectRefused(await browser.post('/dashboard/environment', { environment: 'sandbox', _csrf: 'forged' }));
    expect((await browser.get('/dashboard')).body).toContain('value="production" aria-pressed="true"');
  });

  it('spends the tokens of before sign-in: the CSRF secret is replaced with the session', async () => {
    const browser = new PageBrowser(gateway.url);
    const before = PageBrowser.csrfToken(await browser.get('/dashboard'));
    await browser.post('/dashboard/sign-in', { admin_token: adminToken, _csrf: before });
    expectRefused(await browser.post('/dashboard/environment', { environment: 'sandbox', _csrf: before }));
    expect((await browser.get('/dashboard')).body).toContain('value="production" aria-pressed="true"');
  });
});
