import { createHash, randomUUID } from 'node:crypto';
import { testBackends, TestDatabase } from '@payouts/testing';
import { PAGE_SESSION_LIMITS, PageSessionStore } from './page-session-store';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

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

describe.each(testBackends())('page sessions on $name', (backend) => {
  let database: TestDatabase;
  let sessions: PageSessionStore;
  let clock: TestClock;
  let payoutId: string;
  let linkId: string;
  /** A link payout's deadline: 7 days from the start of each test. */
  let payoutExpiresAt: Date;

  beforeAll(async () => {
    database = await backend.open();
    sessions = new PageSessionStore(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(() => {
    clock = new TestClock();
    payoutId = `po_${randomUUID()}`;
    linkId = `lnk_${randomUUID()}`;
    payoutExpiresAt = new Date(clock.now().getTime() + 7 * DAY_MS);
  });

  function create(options: { accessId?: string; verified?: boolean; expiresAt?: Date } = {}) {
    return sessions.create({
      payoutId,
      accessId: options.accessId ?? linkId,
      verified: options.verified ?? false,
      payoutExpiresAt: options.expiresAt ?? payoutExpiresAt,
      now: clock.now(),
    });
  }

  it('opens a session behind a 256-bit cookie and finds it by that cookie', async () => {
    const created = await create();
    expect(created.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.cookie, 'base64url')).toHaveLength(32);
    expect(created.expiresAt).toEqual(new Date(clock.now().getTime() + 30 * MINUTE_MS));

    const found = await sessions.find(created.cookie, clock.now());
    expect(found).toEqual({
      sessionId: created.sessionId,
      payoutId,
      accessId: linkId,
      verified: false,
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: created.expiresAt,
    });
  });

  it('stores only the SHA-256 of the cookie', async () => {
    const { cookie } = await create();
    const rows = await database.db.query<{ row: string; token_hash: string }>(
      'SELECT t::text AS row, token_hash FROM claim_page_sessions t WHERE payout_id = $1',
      [payoutId],
    );
    expect(rows.rows[0]!.row).not.toContain(cookie);
    expect(rows.rows[0]!.token_hash).toBe(createHash('sha256').update(cookie).digest('hex'));
  });

  it('gives every session its own cookie and CSRF token', async () => {
    const [a, b] = [await create(), await create()];
    expect(a.cookie).not.toBe(b.cookie);
    const [foundA, foundB] = [
      await sessions.find(a.cookie, clock.now()),
      await sessions.find(b.cookie, clock.now()),
    ];
    expect(foundA!.csrfToken).not.toBe(foundB!.csrfToken);
  });

  it('answers null for a malformed, unknown or missing cookie', async () => {
    for (const cookie of [undefined, '', 'short', 'x'.repeat(43), 'é'.repeat(43), `${'A'.repeat(42)}=`]) {
      await expect(sessions.find(cookie, clock.now())).resolves.toBeNull();
    }
  });

  it('ends a session idle for 30 minutes, and use keeps it alive', async () => {
    const { cookie } = await create();
    clock.advance(30 * MINUTE_MS - 1);
    const used = await sessions.find(cookie, clock.now());
    expect(used!.expiresAt).toEqual(new Date(clock.now().getTime() + 30 * MINUTE_MS));
    clock.advance(30 * MINUTE_MS - 1);
    await expect(sessions.find(cookie, clock.now())).resolves.not.toBeNull();
    clock.advance(30 * MINUTE_MS);
    await expect(sessions.find(cookie, clock.now())).resolves.toBeNull();
  });

  it('never outlives the payout: expiry is at payout_expires_at however active the session is', async () => {
    const expiresAt = new Date(clock.now().getTime() + 20 * MINUTE_MS);
    const { cookie, expiresAt: sessionEnd } = await create({ expiresAt });
    expect(sessionEnd).toEqual(expiresAt);
    clock.advance(15 * MINUTE_MS);
    const found = await sessions.find(cookie, clock.now());
    expect(found!.expiresAt).toEqual(expiresAt);
    clock.advance(5 * MINUTE_MS - 1);
    await expect(sessions.find(cookie, clock.now())).resolves.not.toBeNull();
    clock.advance(1);
    await expect(sessions.find(cookie, clock.now())).resolves.toBeNull();
  });

  it('ends a session 12 hours after it began, however active', async () => {
    const { cookie } = await create();
    for (let elapsed = 0; elapsed < 12 * HOUR_MS - 20 * MINUTE_MS; elapsed += 20 * MINUTE_MS) {
      clock.advance(20 * MINUTE_MS);
      await expect(sessions.find(cookie, clock.now())).resolves.not.toBeNull();
    }
    // 11 h 40 min: used again, but its deadline stops at 12 h.
    const found = await sessions.find(cookie, clock.now());
    expect(found!.expiresAt).toEqual(new Date(Date.parse('2030-01-01T12:00:00.000Z')));
    clock.advance(20 * MINUTE_MS);
    await expect(sessions.find(cookie, clock.now())).resolves.toBeNull();
  });

  it('refuses to open a session for a payout already expired', async () => {
    await expect(create({ expiresAt: clock.now() })).rejects.toThrow(/payout has expired/);
    await expect(create({ expiresAt: new Date(clock.now().getTime() - 1) })).rejects.toThrow(RangeError);
  });

  it('refuses malformed input before touching the database', async () => {
    await expect(create({ accessId: '' })).rejects.toThrow(RangeError);
    await expect(create({ expiresAt: new Date(Number.NaN) })).rejects.toThrow(TypeError);
    await expect(
      sessions.create({
        payoutId,
        accessId: linkId,
        verified: 'yes' as unknown as boolean,
        payoutExpiresAt,
        now: clock.now(),
      }),
    ).rejects.toThrow(TypeError);
    await expect(sessions.find('x'.repeat(43), new Date(Number.NaN))).rejects.toThrow(TypeError);
  });

  it('opens a redirect session verified from the start', async () => {
    const { cookie } = await create({ accessId: `rs_${randomUUID()}`, verified: true });
    await expect(sessions.find(cookie, clock.now())).resolves.toMatchObject({ verified: true });
  });

  it('marks a session verified, and only that session', async () => {
    const [a, b] = [await create(), await create()];
    const found = await sessions.find(a.cookie, clock.now());
    await sessions.markVerified(found!, clock.now());
    await expect(sessions.find(a.cookie, clock.now())).resolves.toMatchObject({ verified: true });
    await expect(sessions.find(b.cookie, clock.now())).resolves.toMatchObject({ verified: false });
  });

  it('refuses to mark an ended session verified', async () => {
    const { cookie, sessionId } = await create();
    clock.advance(30 * MINUTE_MS);
    await expect(sessions.markVerified({ sessionId }, clock.now())).rejects.toThrow(/has ended/);
    await expect(sessions.find(cookie, clock.now())).resolves.toBeNull();
    await expect(sessions.markVerified({ sessionId: 'ps_unknown' }, clock.now())).rejects.toThrow(
      /has ended/,
    );
  });

  it("revokes every session of a rotated link, and none of the new link's", async () => {
    const [old1, old2] = [await create(), await create()];
    const rotated = `lnk_${randomUUID()}`;
    const fresh = await create({ accessId: rotated });
    const otherPayout = `po_${randomUUID()}`;
    const elsewhere = await sessions.create({
      payoutId: otherPayout,
      accessId: linkId,
      verified: false,
      payoutExpiresAt,
      now: clock.now(),
    });

    await expect(sessions.revokeAccess(payoutId, linkId)).resolves.toBe(2);
    await expect(sessions.find(old1.cookie, clock.now())).resolves.toBeNull();
    await expect(sessions.find(old2.cookie, clock.now())).resolves.toBeNull();
    await expect(sessions.find(fresh.cookie, clock.now())).resolves.toMatchObject({ accessId: rotated });
    await expect(sessions.find(elsewhere.cookie, clock.now())).resolves.toMatchObject({
      payoutId: otherPayout,
    });
  });

  it('revokes all sessions of a payout but those of the access it keeps, or all of them', async () => {
    const oldRedirect = await create({ accessId: 'rs_old', verified: true });
    const newRedirect = await create({ accessId: 'rs_new', verified: true });
    await expect(sessions.revokePayout(payoutId, { keepAccessId: 'rs_new' })).resolves.toBe(1);
    await expect(sessions.find(oldRedirect.cookie, clock.now())).resolves.toBeNull();
    await expect(sessions.find(newRedirect.cookie, clock.now())).resolves.not.toBeNull();
    await expect(sessions.revokePayout(payoutId)).resolves.toBe(1);
    await expect(sessions.find(newRedirect.cookie, clock.now())).resolves.toBeNull();
  });

  it('ends the session of a cookie on request', async () => {
    const { cookie } = await create();
    await sessions.end(cookie);
    await expect(sessions.find(cookie, clock.now())).resolves.toBeNull();
    await expect(sessions.end('malformed')).resolves.toBeUndefined();
  });

  it('keeps at most 20 live sessions per payout: a new one ends the oldest', async () => {
    const created = [];
    for (let i = 0; i < PAGE_SESSION_LIMITS.maxSessionsPerPayout + 2; i += 1) {
      created.push(await create());
      clock.advance(1000);
    }
    const live = await database.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM claim_page_sessions WHERE payout_id = $1',
      [payoutId],
    );
    expect(live.rows[0]!.n).toBe(PAGE_SESSION_LIMITS.maxSessionsPerPayout);
    await expect(sessions.find(created[0]!.cookie, clock.now())).resolves.toBeNull();
    await expect(sessions.find(created[1]!.cookie, clock.now())).resolves.toBeNull();
    await expect(sessions.find(created[2]!.cookie, clock.now())).resolves.not.toBeNull();
    await expect(sessions.find(created.at(-1)!.cookie, clock.now())).resolves.not.toBeNull();
  });

  it('keeps the session it just opened even when many were opened in the same millisecond', async () => {
    const created = [];
    for (let i = 0; i < PAGE_SESSION_LIMITS.maxSessionsPerPayout + 5; i += 1) {
      const session = await create();
      await expect(sessions.find(session.cookie, clock.now())).resolves.not.toBeNull();
      created.push(session);
    }
  });

  it('purges expired sessions only', async () => {
    const purgeClock = new TestClock();
    purgeClock.advance(-365 * DAY_MS); // before every other test's rows
    const old = await sessions.create({
      payoutId,
      accessId: linkId,
      verified: false,
      payoutExpiresAt,
      now: purgeClock.now(),
    });
    purgeClock.advance(30 * MINUTE_MS);
    const young = await sessions.create({
      payoutId: `po_${randomUUID()}`,
      accessId: linkId,
      verified: false,
      payoutExpiresAt,
      now: purgeClock.now(),
    });
    await expect(sessions.purgeExpired(purgeClock.now())).resolves.toBe(1);
    await expect(sessions.purgeExpired(purgeClock.now())).resolves.toBe(0);
    await expect(sessions.find(old.cookie, purgeClock.now())).resolves.toBeNull();
    await expect(sessions.find(young.cookie, purgeClock.now())).resolves.not.toBeNull();
  });
});
