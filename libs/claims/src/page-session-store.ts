import { createHash, randomBytes } from 'node:crypto';
import type { SqlClient } from '@payouts/database';

/** Lifetimes of the recipient pages' sessions. */
export const PAGE_SESSION_LIMITS = {
  /** A session nobody used for this long has ended (a shared or forgotten browser). */
  idleTimeoutMs: 30 * 60_000,
  /**
   * However active, a session ends this long after it began (and never after the payout's
   * payout_expires_at): a stolen cookie does not live for the week a link payout may last.
   */
  absoluteLifetimeMs: 12 * 60 * 60_000,
  /**
   * Live sessions kept per payout; creating one more ends the oldest. Anyone holding a claim link
   * can open sessions, and this keeps that from filling the table.
   */
  maxSessionsPerPayout: 20,
} as const;

/** A live session, as the pages need it. */
export interface PageSession {
  /** A handle for the session, not a secret (the cookie is): safe in logs. */
  sessionId: string;
  payoutId: string;
  /** The claim link id or redirect session id the session came in through. */
  accessId: string;
  /** Link delivery: the recipient proved the e-mail address. Redirect: verified from the start. */
  verified: boolean;
  /**
   * The session's CSRF secret: the pages hand it to @fastify/csrf-protection, which derives the
   * token of every form (field csrf_token) from it and checks it on every POST.
   */
  csrfToken: string;
  /** The session ends then unless used again (idle timeout, absolute lifetime, payout expiry). */
  expiresAt: Date;
}

export interface CreatedPageSession {
  /** The cookie value: 256 random bits (base64url). Shown once; only its SHA-256 is stored. */
  cookie: string;
  sessionId: string;
  expiresAt: Date;
}

/** The cookie's shape: 32 bytes in base64url without padding. */
const COOKIE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const MAX_ID_LENGTH = 191;
const PURGE_BATCH_ROWS = 5_000;
const MAX_PURGE_BATCHES = 1_000;

const CREATE_SQL = `INSERT INTO claim_page_sessions
    (session_id, token_hash, payout_id, access_id, verified, csrf_secret, created_at, last_seen_at,
     hard_expires_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $7::timestamptz, $8::timestamptz, $9::timestamptz)`;

// Ends this payout's expired sessions and, beside the one just created ($4), all but the newest
// few live ones.
const TRIM_SQL = `DELETE FROM claim_page_sessions WHERE payout_id = $1 AND session_id <> $4 AND (
    expires_at <= $2::timestamptz OR session_id IN (
      SELECT session_id FROM claim_page_sessions
      WHERE payout_id = $1 AND session_id <> $4 AND expires_at > $2::timestamptz
      ORDER BY created_at DESC, session_id DESC OFFSET $3::integer))`;

// Finding a session is using it: one statement checks it is live and moves its idle deadline.
const FIND_SQL = `UPDATE claim_page_sessions
  SET last_seen_at = greatest(last_seen_at, $2::timestamptz),
    expires_at = least(greatest(last_seen_at, $2::timestamptz) + $3::integer * interval '1 millisecond', hard_expires_at)
  WHERE token_hash = $1 AND expires_at > $2::timestamptz
  RETURNING session_id, payout_id, access_id, verified, csrf_secret, expires_at`;

const MARK_VERIFIED_SQL = `UPDATE claim_page_sessions SET verified = true
  WHERE session_id = $1 AND expires_at > $2::timestamptz RETURNING session_id`;

const END_SQL = 'DELETE FROM claim_page_sessions WHERE token_hash = $1';
const REVOKE_ACCESS_SQL = 'DELETE FROM claim_page_sessions WHERE payout_id = $1 AND access_id = $2';
const REVOKE_PAYOUT_SQL = 'DELETE FROM claim_page_sessions WHERE payout_id = $1';
const REVOKE_OTHER_ACCESS_SQL = 'DELETE FROM claim_page_sessions WHERE payout_id = $1 AND access_id <> $2';
const PURGE_SQL = `DELETE FROM claim_page_sessions WHERE session_id IN (
  SELECT session_id FROM claim_page_sessions WHERE expires_at <= $1::timestamptz LIMIT $2::integer)`;

interface SessionRow {
  session_id: string;
  payout_id: string;
  access_id: string;
  verified: boolean;
  csrf_secret: string;
  expires_at: Date | string;
}

/**
 * Sessions of the recipient's pages, in PostgreSQL (PGlite or a server). The browser holds a
 * random token in a cookie; the table holds its SHA-256, so reading the table opens no session.
 * Each session has its own CSRF secret, rendered into the pages' forms. The pages must still
 * check, on every request, that `accessId` is the payout's current link or redirect session:
 * revokeAccess is the cleanup, that check is the rule. Time is the caller's `now`
 * (Clock.now(environment)). Nothing here logs; no error carries a cookie.
 */
export class PageSessionStore {
  readonly #db: SqlClient;

  constructor(db: SqlClient) {
    this.#db = db;
  }

  /**
   * Opens a session for a recipient who came in through `accessId`. Refused (RangeError) when
   * the payout has already expired: the pages show the payout's state instead.
   */
  async create(input: {
    payoutId: string;
    accessId: string;
    verified: boolean;
    payoutExpiresAt: Date;
    now: Date;
  }): Promise<CreatedPageSession> {
    const { payoutId, accessId, verified, payoutExpiresAt, now } = input;
    checkId(payoutId, 'payoutId');
    checkId(accessId, 'accessId');
    checkTime(now, 'now');
    checkTime(payoutExpiresAt, 'payoutExpiresAt');
    if (typeof verified !== 'boolean') throw new TypeError('verified must be a boolean');
    if (now.getTime() >= payoutExpiresAt.getTime()) {
      throw new RangeError('the payout has expired: no session can be opened for it');
    }
    const limits = PAGE_SESSION_LIMITS;
    const hardExpiresAt = Math.min(now.getTime() + limits.absoluteLifetimeMs, payoutExpiresAt.getTime());
    const expiresAt = new Date(Math.min(now.getTime() + limits.idleTimeoutMs, hardExpiresAt));
    const cookie = randomBytes(32).toString('base64url');
    const sessionId = `ps_${randomBytes(16).toString('hex')}`;
    await this.#db.transaction(async (tx) => {
      await tx.query(CREATE_SQL, [
        sessionId,
        tokenHash(cookie),
        payoutId,
        accessId,
        verified,
        randomBytes(32).toString('base64url'),
        now.toISOString(),
        new Date(hardExpiresAt).toISOString(),
        expiresAt.toISOString(),
      ]);
      await tx.query(TRIM_SQL, [payoutId, now.toISOString(), limits.maxSessionsPerPayout - 1, sessionId]);
    });
    return { cookie, sessionId, expiresAt };
  }

  /**
   * The live session of this cookie, its idle deadline moved forward; null when the cookie is
   * malformed, unknown, revoked or expired.
   */
  async find(cookie: string | undefined, now: Date): Promise<PageSession | null> {
    checkTime(now, 'now');
    if (typeof cookie !== 'string' || !COOKIE_PATTERN.test(cookie)) return null;
    const result = await this.#db.query<SessionRow>(FIND_SQL, [
      tokenHash(cookie),
      now.toISOString(),
      PAGE_SESSION_LIMITS.idleTimeoutMs,
    ]);
    const row = result.rows[0];
    if (!row) return null;
    return {
      sessionId: row.session_id,
      payoutId: row.payout_id,
      accessId: row.access_id,
      verified: row.verified,
      csrfToken: row.csrf_secret,
      expiresAt: row.expires_at instanceof Date ? row.expires_at : new Date(row.expires_at),
    };
  }

  /**
   * The recipient proved the e-mail address. Throws when the session ended in the meantime
   * (expired or revoked by a rotation): the pages then answer as for any ended session.
   */
  async markVerified(session: Pick<PageSession, 'sessionId'>, now: Date): Promise<void> {
    checkId(session?.sessionId, 'sessionId');
    checkTime(now, 'now');
    const result = await this.#db.query(MARK_VERIFIED_SQL, [session.sessionId, now.toISOString()]);
    if (result.rows.length === 0) throw new Error('the page session has ended; it cannot be verified');
  }

  /** Ends the session of this cookie (the recipient is done). */
  async end(cookie: string | undefined): Promise<void> {
    if (typeof cookie !== 'string' || !COOKIE_PATTERN.test(cookie)) return;
    await this.#db.query(END_SQL, [tokenHash(cookie)]);
  }

  /**
   * Ends every session that came in through `accessId` (a rotated claim link, a replaced redirect
   * session). Returns how many ended.
   */
  async revokeAccess(payoutId: string, accessId: string): Promise<number> {
    checkId(payoutId, 'payoutId');
    checkId(accessId, 'accessId');
    return (await this.#db.query(REVOKE_ACCESS_SQL, [payoutId, accessId])).rowCount;
  }

  /**
   * Ends every session of the payout, or with `keepAccessId` every session that did not come in
   * through that access (the current link or redirect session). Returns how many ended.
   */
  async revokePayout(payoutId: string, options: { keepAccessId?: string } = {}): Promise<number> {
    checkId(payoutId, 'payoutId');
    if (options.keepAccessId === undefined) {
      return (await this.#db.query(REVOKE_PAYOUT_SQL, [payoutId])).rowCount;
    }
    checkId(options.keepAccessId, 'keepAccessId');
    return (await this.#db.query(REVOKE_OTHER_ACCESS_SQL, [payoutId, options.keepAccessId])).rowCount;
  }

  /** Deletes sessions expired before `now` (a periodic job; find ignores them anyway). */
  async purgeExpired(now: Date): Promise<number> {
    checkTime(now, 'now');
    let deleted = 0;
    for (let batch = 0; batch < MAX_PURGE_BATCHES; batch += 1) {
      const result = await this.#db.query(PURGE_SQL, [now.toISOString(), PURGE_BATCH_ROWS]);
      deleted += result.rowCount;
      if (result.rowCount < PURGE_BATCH_ROWS) break;
    }
    return deleted;
  }
}

function tokenHash(cookie: string): string {
  return createHash('sha256').update(cookie).digest('hex');
}

function checkId(value: string, name: string): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw new RangeError(`${name} must be a string of 1 to ${MAX_ID_LENGTH} characters`);
  }
}

function checkTime(value: Date, name: string): void {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new TypeError(`${name} must be a valid Date`);
  }
}
