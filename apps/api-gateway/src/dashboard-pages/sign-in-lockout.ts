import type { SqlClient } from '@payouts/database';

/** Wrong admin tokens from one client address: this many within the window lock sign-in. */
export const SIGN_IN_LOCKOUT = {
  maxFailures: 10,
  windowMs: 10 * 60_000,
  lockMs: 10 * 60_000,
} as const;

const LOCKED_UNTIL_SQL = `SELECT locked_until FROM dashboard_sign_in_locks
  WHERE client_address = $1 AND locked_until > $2::timestamptz`;

const PURGE_LOCKS_SQL = 'DELETE FROM dashboard_sign_in_locks WHERE locked_until <= $1::timestamptz';

// One statement: forgets failures older than the window (every address's), records this one,
// and when it is the maxFailures-th within the window locks the address. The CTEs read one
// snapshot, so the count does not see the row being inserted: hence the + 1.
const RECORD_FAILURE_SQL = `WITH forgotten AS (
    DELETE FROM dashboard_sign_in_failures
    WHERE failed_at <= $2::timestamptz - $3::integer * interval '1 millisecond'
  ), recorded AS (
    INSERT INTO dashboard_sign_in_failures (client_address, failed_at) VALUES ($1, $2::timestamptz)
  ), recent AS (
    SELECT count(*) + 1 AS failures FROM dashboard_sign_in_failures
    WHERE client_address = $1 AND failed_at > $2::timestamptz - $3::integer * interval '1 millisecond'
  )
  INSERT INTO dashboard_sign_in_locks (client_address, locked_until)
    SELECT $1, $2::timestamptz + $5::integer * interval '1 millisecond' FROM recent WHERE failures >= $4
  ON CONFLICT (client_address) DO UPDATE
    SET locked_until = greatest(dashboard_sign_in_locks.locked_until, excluded.locked_until)
  RETURNING locked_until`;

// One address's sign-ins take turns (a transaction-scoped lock on its hash), so a burst of
// concurrent guesses is counted exactly: the check and the count of each happen alone.
const ADDRESS_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('dashboard-sign-in:' || $1, 0))`;

// A guess that turned out right gives back what its reservation took: one failure row of its
// address and instant, and the lock when the reservation made it.
const RELEASE_FAILURE_SQL = `DELETE FROM dashboard_sign_in_failures WHERE ctid = (
    SELECT ctid FROM dashboard_sign_in_failures WHERE client_address = $1 AND failed_at = $2::timestamptz LIMIT 1)`;
const RELEASE_LOCK_SQL = `DELETE FROM dashboard_sign_in_locks WHERE client_address = $1 AND locked_until = $2::timestamptz`;

/** What a sign-in attempt may do: nothing while the address is locked, else check one token. */
export type SignInReservation =
  | { kind: 'locked'; lockedUntil: Date }
  /** `locks` is when the lock this attempt's failure set ends (it was the last allowed guess). */
  | { kind: 'reserved'; locks: Date | null };

/**
 * Guessing admin tokens through the sign-in form: after SIGN_IN_LOCKOUT.maxFailures wrong
 * tokens from one address within the window, every sign-in from it (a right token too) is
 * refused until the lock ends. In the database, so the count is shared by every gateway process.
 *
 * Each attempt is counted as a failure before its token is checked (`reserve`), and given back
 * when the token was right (`release`): however many guesses arrive at once, at most
 * maxFailures tokens are ever checked in a window. A successful sign-in does not reset the count:
 * a token of one's own account must not buy more guesses at other accounts' tokens.
 */
export class SignInLockout {
  constructor(private readonly db: SqlClient) {}

  /** When the address's lock ends; null when it is not locked. */
  async lockedUntil(clientAddress: string, now: Date): Promise<Date | null> {
    const result = await this.db.query<{ locked_until: Date | string }>(LOCKED_UNTIL_SQL, [
      clientAddress,
      now.toISOString(),
    ]);
    const row = result.rows[0];
    return row ? new Date(row.locked_until) : null;
  }

  /** Refused while locked; otherwise this attempt is counted as a failure until released. */
  reserve(clientAddress: string, now: Date): Promise<SignInReservation> {
    return this.db.transaction(async (tx) => {
      await tx.query(ADDRESS_LOCK_SQL, [clientAddress]);
      const locked = await tx.query<{ locked_until: Date | string }>(LOCKED_UNTIL_SQL, [
        clientAddress,
        now.toISOString(),
      ]);
      if (locked.rows[0]) return { kind: 'locked', lockedUntil: new Date(locked.rows[0].locked_until) };
      await tx.query(PURGE_LOCKS_SQL, [now.toISOString()]);
      const recorded = await tx.query<{ locked_until: Date | string }>(RECORD_FAILURE_SQL, [
        clientAddress,
        now.toISOString(),
        SIGN_IN_LOCKOUT.windowMs,
        SIGN_IN_LOCKOUT.maxFailures,
        SIGN_IN_LOCKOUT.lockMs,
      ]);
      const row = recorded.rows[0];
      return { kind: 'reserved', locks: row ? new Date(row.locked_until) : null };
    });
  }

  /** The reserved attempt's token was right: it was no failure, and any lock it set is lifted. */
  release(clientAddress: string, now: Date, reservation: { locks: Date | null }): Promise<void> {
    return this.db.transaction(async (tx) => {
      await tx.query(ADDRESS_LOCK_SQL, [clientAddress]);
      await tx.query(RELEASE_FAILURE_SQL, [clientAddress, now.toISOString()]);
      if (reservation.locks)
        await tx.query(RELEASE_LOCK_SQL, [clientAddress, reservation.locks.toISOString()]);
    });
  }
}
