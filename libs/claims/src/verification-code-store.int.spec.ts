import { randomBytes, randomUUID } from 'node:crypto';
import { PostgresSqlClient } from '@payouts/database';
import { testBackends, TestDatabase } from '@payouts/testing';
import { CodeCheck, VERIFICATION_CODE_LIMITS } from './verification-code-limits';
import { VerificationCodeStore } from './verification-code-store';

const SECOND_MS = 1000;
const HMAC_KEY = randomBytes(32);
const MINUTE_MS = 60 * SECOND_MS;

/** A clock the test moves by hand. */
class TestClock {
  private ms = Date.parse('2030-01-01T00:00:00.000Z');
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

describe.each(testBackends())('verification codes on $name', (backend) => {
  let database: TestDatabase;
  let store: VerificationCodeStore;
  let clock: TestClock;
  let payoutId: string;
  let linkId: string;
  /** Each test is its own client unless it says otherwise, so the per-client limit stays out of the way. */
  let clientKey: string;

  beforeAll(async () => {
    database = await backend.open();
    store = new VerificationCodeStore(database.db, HMAC_KEY);
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(() => {
    clock = new TestClock();
    payoutId = `po_${randomUUID()}`;
    linkId = `lnk_${randomUUID()}`;
    clientKey = `client-${randomUUID()}`;
  });

  async function issue(forLink = linkId): Promise<string> {
    const issued = await store.issue({ payoutId, linkId: forLink, now: clock.now() });
    if (!issued.ok) throw new Error(`expected a code, got retry after ${issued.retryAfterSeconds} s`);
    return issued.code;
  }

  function verify(code: string, options: { link?: string; client?: string } = {}): Promise<CodeCheck> {
    return store.verify({
      payoutId,
      linkId: options.link ?? linkId,
      code,
      clientKey: options.client ?? clientKey,
      now: clock.now(),
    });
  }

  /** A 6-digit code that is not `code`. */
  function wrong(code: string): string {
    return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  }

  it('issues a 6-digit code valid 10 minutes, which verifies once', async () => {
    const issued = await store.issue({ payoutId, linkId, now: clock.now() });
    expect(issued).toEqual({ ok: true, code: expect.stringMatching(/^\d{6}$/), expiresAt: expect.any(Date) });
    if (!issued.ok) return;
    expect(issued.expiresAt.getTime() - clock.now().getTime()).toBe(10 * MINUTE_MS);

    await expect(verify(issued.code)).resolves.toEqual({ outcome: 'verified' });
    await expect(verify(issued.code)).resolves.toEqual({ outcome: 'no_code' });
  });

  it('stores only a keyed hash of the code', async () => {
    const code = await issue();
    const rows = await database.db.query<{ row: string }>(
      'SELECT t::text AS row FROM claim_verification_codes t WHERE payout_id = $1',
      [payoutId],
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]!.row).not.toContain(code);
    // Another store with another key cannot verify it: the hash is an HMAC, not a plain digest.
    const otherKey = new VerificationCodeStore(database.db, randomBytes(32));
    await expect(otherKey.verify({ payoutId, linkId, code, clientKey, now: clock.now() })).resolves.toEqual({
      outcome: 'wrong',
      triesLeft: 4,
    });
  });

  it('answers no_code when none was issued for the payout', async () => {
    await expect(verify('123456')).resolves.toEqual({ outcome: 'no_code' });
  });

  it('accepts a code up to the last millisecond of its 10 minutes, and answers expired from then on', async () => {
    const code = await issue();
    clock.advance(10 * MINUTE_MS - 1);
    const stillValid = await verify(wrong(code));
    expect(stillValid).toEqual({ outcome: 'wrong', triesLeft: 4 });
    clock.advance(1);
    await expect(verify(code)).resolves.toEqual({ outcome: 'expired' });
    await expect(verify(wrong(code))).resolves.toEqual({ outcome: 'expired' });
  });

  it('locks the code after 5 wrong tries, even for the right code, until a new code is issued', async () => {
    const code = await issue();
    for (const triesLeft of [4, 3, 2, 1]) {
      await expect(verify(wrong(code))).resolves.toEqual({ outcome: 'wrong', triesLeft });
    }
    await expect(verify(wrong(code))).resolves.toEqual({ outcome: 'locked' });
    await expect(verify(code)).resolves.toEqual({ outcome: 'locked' });

    clock.advance(VERIFICATION_CODE_LIMITS.resendIntervalMs);
    const fresh = await issue();
    await expect(verify(code === fresh ? wrong(fresh) : code)).resolves.toEqual({
      outcome: 'wrong',
      triesLeft: 4,
    });
    await expect(verify(fresh)).resolves.toEqual({ outcome: 'verified' });
  });

  it('invalidates the previous code when a new one is issued', async () => {
    const first = await issue();
    clock.advance(VERIFICATION_CODE_LIMITS.resendIntervalMs);
    const second = await issue();
    if (first !== second) {
      await expect(verify(first)).resolves.toEqual({ outcome: 'wrong', triesLeft: 4 });
    }
    await expect(verify(second)).resolves.toEqual({ outcome: 'verified' });
  });

  it('binds a code to its link: after a rotation the old code answers no_code', async () => {
    const code = await issue();
    const rotatedLink = `lnk_${randomUUID()}`;
    await expect(verify(code, { link: rotatedLink })).resolves.toEqual({ outcome: 'no_code' });
    // A code issued for the new link replaces the old one, which the old link can no longer use.
    clock.advance(VERIFICATION_CODE_LIMITS.resendIntervalMs);
    const fresh = await issue(rotatedLink);
    await expect(verify(code)).resolves.toEqual({ outcome: 'no_code' });
    await expect(verify(fresh, { link: rotatedLink })).resolves.toEqual({ outcome: 'verified' });
  });

  it('has an outstanding code from its issue until it verifies, expires, locks or its link is rotated', async () => {
    const outstanding = (forLink = linkId) =>
      store.hasOutstandingCode({ payoutId, linkId: forLink, now: clock.now() });
    expect(await outstanding()).toBe(false);
    await issue();
    expect(await outstanding()).toBe(true);
    expect(await outstanding('lnk_other')).toBe(false);
    clock.advance(VERIFICATION_CODE_LIMITS.codeTtlMs - 1);
    expect(await outstanding()).toBe(true);
    clock.advance(1);
    expect(await outstanding()).toBe(false);

    clock.advance(VERIFICATION_CODE_LIMITS.resendIntervalMs);
    const next = await issue();
    expect(await outstanding()).toBe(true);
    expect(await verify(next)).toEqual({ outcome: 'verified' });
    expect(await outstanding()).toBe(false);

    clock.advance(VERIFICATION_CODE_LIMITS.resendIntervalMs);
    const third = await issue();
    for (let i = 0; i < VERIFICATION_CODE_LIMITS.maxWrongAttempts; i += 1) await verify(wrong(third));
    expect(await outstanding()).toBe(false);
  });

  it('revoke deletes the code', async () => {
    const code = await issue();
    await store.revoke(payoutId);
    await expect(verify(code)).resolves.toEqual({ outcome: 'no_code' });
  });

  it('refuses a resend within 30 seconds and says when the next is allowed', async () => {
    await issue();
    clock.advance(10 * SECOND_MS);
    await expect(store.issue({ payoutId, linkId, now: clock.now() })).resolves.toEqual({
      ok: false,
      retryAfterSeconds: 20,
    });
    await expect(store.nextIssueAt(payoutId, clock.now())).resolves.toEqual(
      new Date(clock.now().getTime() + 20_000),
    );
    clock.advance(20 * SECOND_MS - 1);
    await expect(store.issue({ payoutId, linkId, now: clock.now() })).resolves.toEqual({
      ok: false,
      retryAfterSeconds: 1,
    });
    clock.advance(1);
    await expect(store.nextIssueAt(payoutId, clock.now())).resolves.toEqual(clock.now());
    await issue();
  });

  it('refuses a sixth code within an hour, until the first of the five is an hour old', async () => {
    const start = clock.now().getTime();
    for (let i = 0; i < 5; i += 1) {
      await issue();
      clock.advance(MINUTE_MS);
    }
    // Five sent at 0, 1, 2, 3 and 4 minutes; now is 5 minutes.
    await expect(store.issue({ payoutId, linkId, now: clock.now() })).resolves.toEqual({
      ok: false,
      retryAfterSeconds: 55 * 60,
    });
    await expect(store.nextIssueAt(payoutId, clock.now())).resolves.toEqual(new Date(start + 60 * MINUTE_MS));
    clock.advance(55 * MINUTE_MS - 1);
    await expect(store.issue({ payoutId, linkId, now: clock.now() })).resolves.toMatchObject({ ok: false });
    clock.advance(1);
    await issue();
    // The next one waits for the second of the original five (sent at 1 minute) to age out.
    clock.advance(VERIFICATION_CODE_LIMITS.resendIntervalMs);
    await expect(store.issue({ payoutId, linkId, now: clock.now() })).resolves.toEqual({
      ok: false,
      retryAfterSeconds: 30,
    });
  });

  it('keeps resend limits per payout: another payout issues at once', async () => {
    await issue();
    const other = await store.issue({ payoutId: `po_${randomUUID()}`, linkId, now: clock.now() });
    expect(other.ok).toBe(true);
  });

  it('limits a client to 20 attempts in 10 minutes across payouts, then says when to retry', async () => {
    const client = `198.51.100.${randomUUID()}`;
    const payouts = Array.from({ length: 4 }, () => `po_${randomUUID()}`);
    for (const id of payouts) await store.issue({ payoutId: id, linkId, now: clock.now() });
    // 20 wrong tries spread over 4 payouts (5 each, so each ends locked), one every 10 seconds.
    for (let i = 0; i < 20; i += 1) {
      const checked = await store.verify({
        payoutId: payouts[i % 4]!,
        linkId,
        code: 'not-it',
        clientKey: client,
        now: clock.now(),
      });
      expect(checked.outcome).not.toBe('rate_limited');
      clock.advance(10 * SECOND_MS);
    }
    // Now 200 s after the first attempt: it ages out of the window at 600 s.
    const fifthPayout = `po_${randomUUID()}`;
    const code = (await store.issue({ payoutId: fifthPayout, linkId, now: clock.now() })) as { code: string };
    const attempt = () =>
      store.verify({ payoutId: fifthPayout, linkId, code: code.code, clientKey: client, now: clock.now() });
    await expect(attempt()).resolves.toEqual({ outcome: 'rate_limited', retryAfterSeconds: 400 });
    // Another client is not held back, even on the same payout.
    await expect(
      store.verify({ payoutId: fifthPayout, linkId, code: wrong(code.code), clientKey, now: clock.now() }),
    ).resolves.toEqual({ outcome: 'wrong', triesLeft: 4 });

    clock.advance(400 * SECOND_MS - 1);
    await expect(attempt()).resolves.toEqual({ outcome: 'rate_limited', retryAfterSeconds: 1 });
    clock.advance(1);
    await expect(attempt()).resolves.toEqual({ outcome: 'verified' });
  });

  it('does not count a refused (rate-limited) attempt against the client', async () => {
    const client = `198.51.100.${randomUUID()}`;
    await issue();
    for (let i = 0; i < 20; i += 1) {
      await store.verify({
        payoutId: `po_${randomUUID()}`,
        linkId,
        code: '000000',
        clientKey: client,
        now: clock.now(),
      });
    }
    clock.advance(5 * MINUTE_MS);
    for (let i = 0; i < 10; i += 1) {
      await expect(
        store.verify({ payoutId, linkId, code: '000000', clientKey: client, now: clock.now() }),
      ).resolves.toMatchObject({ outcome: 'rate_limited' });
    }
    // The window of the first 20 ends 10 minutes after them, whatever was refused meanwhile.
    clock.advance(5 * MINUTE_MS);
    await expect(
      store.verify({ payoutId, linkId, code: '000000', clientKey: client, now: clock.now() }),
    ).resolves.not.toMatchObject({ outcome: 'rate_limited' });
  });

  it('stores the client key only as an HMAC', async () => {
    const client = `192.0.2.77-${randomUUID()}`;
    await store.verify({ payoutId, linkId, code: '123456', clientKey: client, now: clock.now() });
    const dump = await database.db.query<{ row: string }>(
      'SELECT t::text AS row FROM claim_verification_attempts t',
    );
    expect(dump.rows.length).toBeGreaterThan(0);
    expect(dump.rows.map((r) => r.row).join('\n')).not.toContain('192.0.2.77');
  });

  it('refuses malformed input before touching the database', async () => {
    const now = clock.now();
    await expect(store.issue({ payoutId: '', linkId, now })).rejects.toThrow(RangeError);
    await expect(store.issue({ payoutId, linkId: 'l'.repeat(192), now })).rejects.toThrow(RangeError);
    await expect(store.issue({ payoutId, linkId, now: new Date(Number.NaN) })).rejects.toThrow(TypeError);
    await expect(store.verify({ payoutId, linkId, code: '123456', clientKey: '', now })).rejects.toThrow(
      RangeError,
    );
    await expect(
      store.verify({ payoutId, linkId, code: 123456 as unknown as string, clientKey, now }),
    ).rejects.toThrow(TypeError);
    expect(() => new VerificationCodeStore(database.db, randomBytes(16))).toThrow(/at least 32 bytes/);
  });

  it('purges what has aged out and leaves live codes working', async () => {
    const purgeClock = new TestClock();
    purgeClock.advance(-365 * 24 * 60 * MINUTE_MS); // before every other test's rows
    const oldPayout = `po_${randomUUID()}`;
    await store.issue({ payoutId: oldPayout, linkId, now: purgeClock.now() });
    await store.verify({ payoutId: oldPayout, linkId, code: 'x', clientKey, now: purgeClock.now() });
    purgeClock.advance(61 * MINUTE_MS);
    const livePayout = `po_${randomUUID()}`;
    const live = (await store.issue({ payoutId: livePayout, linkId, now: purgeClock.now() })) as {
      code: string;
    };

    // The old code, its send and its attempt are gone; nothing younger is.
    await expect(store.purgeExpired(purgeClock.now())).resolves.toBe(3);
    await expect(store.purgeExpired(purgeClock.now())).resolves.toBe(0);
    await expect(
      store.verify({ payoutId: livePayout, linkId, code: live.code, clientKey, now: purgeClock.now() }),
    ).resolves.toEqual({ outcome: 'verified' });
  });

  if (backend.name === 'postgres') {
    describe('from several processes at once', () => {
      let clients: PostgresSqlClient[];
      let stores: VerificationCodeStore[];

      beforeEach(() => {
        clients = Array.from(
          { length: 4 },
          () => new PostgresSqlClient({ connectionString: database.url!, maxConnections: 5 }),
        );
        stores = clients.map((client) => new VerificationCodeStore(client, HMAC_KEY));
      });
      afterEach(async () => {
        await Promise.all(clients.map((client) => client.close()));
      });

      it('count concurrent wrong guesses exactly: four wrong, then locked', async () => {
        const code = await issue();
        const checks = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            stores[i % stores.length]!.verify({
              payoutId,
              linkId,
              code: wrong(code),
              clientKey: `${clientKey}-${i}`,
              now: clock.now(),
            }),
          ),
        );
        const wrongs = checks.filter(
          (c): c is Extract<CodeCheck, { outcome: 'wrong' }> => c.outcome === 'wrong',
        );
        expect(wrongs.map((c) => c.triesLeft).sort()).toEqual([1, 2, 3, 4]);
        expect(checks.filter((c) => c.outcome === 'locked')).toHaveLength(26);
        await expect(verify(code)).resolves.toEqual({ outcome: 'locked' });
      });

      it('issue one code of ten concurrent requests', async () => {
        const issues = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            stores[i % stores.length]!.issue({ payoutId, linkId, now: clock.now() }),
          ),
        );
        expect(issues.filter((issued) => issued.ok)).toHaveLength(1);
      });

      it('hold one client to its limit across concurrent attempts on many payouts', async () => {
        const checks = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            stores[i % stores.length]!.verify({
              payoutId: `po_${randomUUID()}`,
              linkId,
              code: '000000',
              clientKey,
              now: clock.now(),
            }),
          ),
        );
        expect(checks.filter((c) => c.outcome === 'no_code')).toHaveLength(20);
        expect(checks.filter((c) => c.outcome === 'rate_limited')).toHaveLength(10);
      });
    });
  }
});
