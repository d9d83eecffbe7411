import { createHash, randomBytes } from 'node:crypto';
import type { SqlClient } from '@payouts/database';
import type { Environment } from '@payouts/domain';

/** A session nobody used for this long has ended (a forgotten browser at the shop's counter). */
export const DASHBOARD_IDLE_TIMEOUT_MS = 30 * 60_000;

/** A live dashboard session. */
export interface DashboardSession {
  /** A handle, not a secret (the cookie is): safe in logs. */
  sessionId: string;
  accountId: string;
  /** What the pages show; production until switched. */
  environment: Environment;
}

/** The cookie's shape: 32 random bytes in base64url without padding. */
const COOKIE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const PURGE_BATCH_ROWS = 100;

const CREATE_SQL = `INSERT INTO dashboard_sessions
    (session_id, token_hash, account_id, environment, created_at, last_seen_at, expires_at)
  VALUES ($1, $2, $3, 'production', $4::timestamptz, $4::timestamptz, $5::timestamptz)`;

// Each sign-in removes a few sessions that ended by idling, so the table does not grow.
const PURGE_SQL = `DELETE FROM dashboard_sessions WHERE session_id IN (
  SELECT session_id FROM dashboard_sessions WHERE expires_at <= $1::timestamptz LIMIT $2::integer)`;

// Finding a session is using it: one statement checks it is live and moves its idle deadline.
const FIND_SQL = `UPDATE dashboard_sessions
  SET last_seen_at = greatest(last_seen_at, $2::timestamptz),
    expires_at = greatest(last_seen_at, $2::timestamptz) + $3::integer * interval '1 millisecond'
  WHERE token_hash = $1 AND expires_at > $2::timestamptz
  RETURNING session_id, account_id, environment`;

const SET_ENVIRONMENT_SQL = `UPDATE dashboard_sessions SET environment = $2
  WHERE session_id = $1 AND expires_at > $3::timestamptz RETURNING session_id`;

const END_SQL = 'DELETE FROM dashboard_sessions WHERE token_hash = $1';

interface SessionRow {
  session_id: string;
  account_id: string;
  environment: Environment;
}

/**
 * The dashboard's sign-in sessions, in the database so every gateway process shares them. The
 * browser holds a random token in a cookie; the table holds its SHA-256. Time is the caller's.
 */
export class DashboardSessions {
  constructor(private readonly db: SqlClient) {}

  /** Signs `accountId` in: the cookie value is returned once and never stored. */
  async create(accountId: string, now: Date): Promise<{ cookie: string; session: DashboardSession }> {
    const cookie = randomBytes(32).toString('base64url');
    const sessionId = `ds_${randomBytes(16).toString('hex')}`;
    const expiresAt = new Date(now.getTime() + DASHBOARD_IDLE_TIMEOUT_MS);
    await this.db.query(PURGE_SQL, [now.toISOString(), PURGE_BATCH_ROWS]);
    await this.db.query(CREATE_SQL, [
      sessionId,
      tokenHash(cookie),
      accountId,
      now.toISOString(),
      expiresAt.toISOString(),
    ]);
    return { cookie, session: { sessionId, accountId, environment: 'production' } };
  }

  /** The live session of this cookie, its idle deadline moved on; null when there is none. */
  async find(cookie: string | undefined, now: Date): Promise<DashboardSession | null> {
    if (typeof cookie !== 'string' || !COOKIE_PATTERN.test(cookie)) return null;
    const result = await this.db.query<SessionRow>(FIND_SQL, [
      tokenHash(cookie),
      now.toISOString(),
      DASHBOARD_IDLE_TIMEOUT_MS,
    ]);
    const row = result.rows[0];
    return row
      ? { sessionId: row.session_id, accountId: row.account_id, environment: row.environment }
      : null;
  }

  /** False when the session ended in the meantime. */
  async setEnvironment(sessionId: string, environment: Environment, now: Date): Promise<boolean> {
    const result = await this.db.query(SET_ENVIRONMENT_SQL, [sessionId, environment, now.toISOString()]);
    return result.rows.length > 0;
  }

  /** Signs out: the cookie opens nothing any more, wherever it was copied to. */
  async end(cookie: string | undefined): Promise<void> {
    if (typeof cookie !== 'string' || !COOKIE_PATTERN.test(cookie)) return;
    await this.db.query(END_SQL, [tokenHash(cookie)]);
  }
}

function tokenHash(cookie: string): string {
  return createHash('sha256').update(cookie).digest('hex');
}
