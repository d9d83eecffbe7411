import { client, Gateway, merchant, startGateway } from '../api/gateway-harness';
import { PageBrowser } from './page-browser';

const WRONG = `adm_${'0'.repeat(48)}`;

/**
 * The sign-in lockout behind a reverse proxy (TRUSTED_PROXIES, docs/dashboard.md#lockout): the
 * client address is the one the trusted proxy names in X-Forwarded-For, so one guesser behind the
 * proxy locks out only itself; without the setting, X-Forwarded-For is ignored, so a guesser
 * cannot escape the lock by naming a new address in each request.
 */
describe('dashboard sign-in lockout behind a reverse proxy (real HTTP, the built app)', () => {
  const signIn = (browser: PageBrowser, token: string) =>
    browser.submit('/dashboard', '/dashboard/sign-in', { admin_token: token });

  describe('with the proxy trusted (TRUSTED_PROXIES=127.0.0.5)', () => {
    let gateway: Gateway;
    let adminToken: string;
    beforeAll(async () => {
      gateway = await startGateway('pglite', { TRUSTED_PROXIES: '127.0.0.5' });
      ({ adminToken } = await merchant(client(gateway.url), '0.00'));
    });
    afterAll(() => gateway?.close());

    it('locks the forwarded client, not the proxy: another client through the same proxy signs in', async () => {
      const guesser = new PageBrowser(gateway.url, '127.0.0.5', { 'x-forwarded-for': '203.0.113.7' });
      for (let attempt = 1; attempt <= 9; attempt += 1)
        expect((await signIn(guesser, WRONG)).status).toBe(401);
      expect((await signIn(guesser, WRONG)).status).toBe(429);
      expect((await signIn(guesser, adminToken)).status).toBe(429);

      const colleague = new PageBrowser(gateway.url, '127.0.0.5', { 'x-forwarded-for': '198.51.100.20' });
      expect((await signIn(colleague, adminToken)).status).toBe(303);
    });

    it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
      const direct = (forwarded: string) =>
        new PageBrowser(gateway.url, '127.0.0.6', { 'x-forwarded-for': forwarded });
      for (let attempt = 1; attempt <= 10; attempt += 1) await signIn(direct(`192.0.2.${attempt}`), WRONG);
      expect((await signIn(direct('192.0.2.99'), adminToken)).status).toBe(429);
    });
  });

  describe('with no proxy trusted (the default)', () => {
    let gateway: Gateway;
    let adminToken: string;
    beforeAll(async () => {
      gateway = await startGateway('pglite');
      ({ adminToken } = await merchant(client(gateway.url), '0.00'));
    });
    afterAll(() => gateway?.close());

    it('counts the TCP peer whatever X-Forwarded-For claims', async () => {
      const spoofing = (forwarded: string) =>
        new PageBrowser(gateway.url, '127.0.0.7', { 'x-forwarded-for': forwarded });
      for (let attempt = 1; attempt <= 10; attempt += 1)
        await signIn(spoofing(`198.51.100.${attempt}`), WRONG);
      expect((await signIn(spoofing('198.51.100.200'), adminToken)).status).toBe(429);
    });
  });
});
