import { TestingGateway } from '../api/testing-gateway';
import { MINUTE, startDashboardGateway, TestClock } from './dashboard-harness';
import { PageAnswer, PageBrowser, setCookieLine } from './page-browser';

const WRONG = `adm_${'0'.repeat(48)}`;

/** 10 wrong admin tokens from one address within 10 minutes lock sign-in from it for 10 minutes. */
describe('dashboard sign-in lockout (real HTTP, per client address, moved clock)', () => {
  const clock = new TestClock();
  let gateway: TestingGateway;
  let adminToken: string;

  beforeAll(async () => {
    ({
      gateway,
      shop: { adminToken },
    } = await startDashboardGateway(clock));
  });
  afterAll(() => gateway?.close());

  const from = (address: string) => new PageBrowser(gateway.url, address);
  const signIn = (browser: PageBrowser, token: string) =>
    browser.submit('/dashboard', '/dashboard/sign-in', { admin_token: token });

  function expectLocked(answer: PageAnswer) {
    expect(answer.status).toBe(429);
    expect(answer.body).toContain('Sign-in locked');
    expect(answer.body).toContain('Too many wrong admin tokens');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(setCookieLine(answer, 'dashboard_session')).toBeUndefined();
  }

  it('locks an address at its 10th wrong token and refuses the right one then; other addresses sign in', async () => {
    const attacker = from('127.0.0.2');
    for (let attempt = 1; attempt <= 9; attempt += 1) {
      expect((await signIn(attacker, WRONG)).status).toBe(401);
    }
    const tenth = await signIn(attacker, WRONG);
    expectLocked(tenth);
    expect(tenth.headers['retry-after']).toBe('600');
    expectLocked(await signIn(attacker, adminToken));

    const neighbour = from('127.0.0.3');
    expect((await signIn(neighbour, adminToken)).status).toBe(303);
  });

  it('keeps the lock for 10 minutes, then lets the right token in', async () => {
    const address = from('127.0.0.4');
    for (let attempt = 1; attempt <= 10; attempt += 1) await signIn(address, WRONG);
    clock.advance(10 * MINUTE - 1_000);
    expectLocked(await signIn(address, adminToken));
    clock.advance(1_000);
    expect((await signIn(address, adminToken)).status).toBe(303);
  });

  it('does not lock at 9 wrong tokens, nor for wrong tokens spread over more than 10 minutes', async () => {
    const address = from('127.0.0.5');
    for (let attempt = 1; attempt <= 9; attempt += 1) await signIn(address, WRONG);
    clock.advance(10 * MINUTE);
    expect((await signIn(address, WRONG)).status).toBe(401);
    expect((await signIn(address, adminToken)).status).toBe(303);
  });

  it('counts a wrong token sent during a lock as nothing: the lock still ends on time', async () => {
    const address = from('127.0.0.6');
    for (let attempt = 1; attempt <= 10; attempt += 1) await signIn(address, WRONG);
    clock.advance(5 * MINUTE);
    expectLocked(await signIn(address, WRONG));
    clock.advance(5 * MINUTE);
    expect((await signIn(address, WRONG)).status).toBe(401);
  });
});
