import { testBackends, TestDatabase } from '@payouts/testing';
import { SIGN_IN_LOCKOUT, SignInLockout, SignInReservation } from './sign-in-lockout';

const MINUTE = 60_000;

/**
 * The sign-in lockout's count on each backend (docs/dashboard.md#lockout): every attempt is
 * counted before its token is checked, so a burst of concurrent guesses from one address gets
 * exactly maxFailures token checks, and a right token gives its count back.
 */
describe.each(testBackends())('the dashboard sign-in lockout on $name', (backend) => {
  let database: TestDatabase;
  let lockout: SignInLockout;
  const start = Date.parse('2030-01-01T09:00:00Z');
  const at = (ms: number) => new Date(start + ms);

  beforeAll(async () => {
    database = await backend.open({ poolSize: 12 });
    lockout = new SignInLockout(database.db);
  });
  afterAll(() => database.drop());

  const reserved = (r: SignInReservation) => r.kind === 'reserved';

  it('lets exactly 10 of 30 concurrent guesses from one address be checked; the 10th locks it for 10 minutes', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 30 }, () => lockout.reserve('198.51.100.1', at(0))),
    );
    expect(attempts.filter(reserved)).toHaveLength(SIGN_IN_LOCKOUT.maxFailures);
    const locking = attempts.filter((r) => r.kind === 'reserved' && r.locks !== null);
    expect(locking).toEqual([{ kind: 'reserved', locks: at(10 * MINUTE) }]);
    expect(attempts.filter((r) => r.kind === 'locked')).toHaveLength(20);
    await expect(lockout.lockedUntil('198.51.100.1', at(10 * MINUTE - 1))).resolves.toEqual(at(10 * MINUTE));
    await expect(lockout.lockedUntil('198.51.100.1', at(10 * MINUTE))).resolves.toBeNull();
    // Another address is untouched.
    await expect(lockout.reserve('198.51.100.2', at(0))).resolves.toEqual({ kind: 'reserved', locks: null });
  });

  it('does not count a right token: released attempts leave room for 10 wrong ones', async () => {
    const address = '203.0.113.5';
    for (let i = 0; i < 5; i += 1) {
      const attempt = await lockout.reserve(address, at(i));
      if (attempt.kind !== 'reserved') throw new Error('refused');
      await lockout.release(address, at(i), attempt);
    }
    const wrong: SignInReservation[] = [];
    for (let i = 0; i < 10; i += 1) wrong.push(await lockout.reserve(address, at(100 + i)));
    expect(wrong.slice(0, 9).every((r) => r.kind === 'reserved' && r.locks === null)).toBe(true);
    expect(wrong[9]).toEqual({ kind: 'reserved', locks: at(109 + 10 * MINUTE) });
  });

  it('lifts the lock a right 10th token would have set, and forgets failures older than the window', async () => {
    const address = '203.0.113.6';
    for (let i = 0; i < 9; i += 1) await lockout.reserve(address, at(i * MINUTE));
    const tenth = await lockout.reserve(address, at(9 * MINUTE));
    expect(tenth).toEqual({ kind: 'reserved', locks: at(19 * MINUTE) });
    if (tenth.kind !== 'reserved') throw new Error('refused');
    await lockout.release(address, at(9 * MINUTE), tenth);
    await expect(lockout.lockedUntil(address, at(9 * MINUTE))).resolves.toBeNull();
    // The first failure (minute 0) leaves the window at minute 10: a wrong token then is the 9th.
    await expect(lockout.reserve(address, at(10 * MINUTE + 1))).resolves.toEqual({
      kind: 'reserved',
      locks: null,
    });
    await expect(lockout.reserve(address, at(10 * MINUTE + 2))).resolves.toEqual({
      kind: 'reserved',
      locks: at(20 * MINUTE + 2),
    });
  });
});
