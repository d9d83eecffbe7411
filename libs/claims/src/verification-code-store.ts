import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { SqlClient, SqlQueryable } from '@payouts/database';

/**
 * The limits of e-mailed verification codes (link delivery). A code is 6 digits, so its strength
 * comes from these limits, not from its length: 5 tries per code, 5 codes per hour per payout and
 * 20 tries per 10 minutes per client give a guesser about 1 in 40,000 per payout per hour.
 */
export const VERIFICATION_CODE_LIMITS = {
  codeDigits: 6,
  /** How long a code is valid after it is issued. */
  codeTtlMs: 10 * 60_000,
  /** Wrong tries that lock a code; only a new code (a new e-mail) unlocks the payout. */
  maxWrongAttempts: 5,
  /** Least time between two codes for one payout: a double click sends one e-mail. */
  resendIntervalMs: 30_000,
  /** Most codes per payout in any sendWindowMs: bounds the e-mails one link can trigger. */
  maxSendsPerWindow: 5,
  sendWindowMs: 60 * 60_000,
  /** Most verification attempts per client key (IP address) in any clientWindowMs, across payouts. */
  maxClientAttempts: 20,
  clientWindowMs: 10 * 60_000,
} as const;

export type CodeIssue =
  /** Send `code` to the recipient (and never log it); it is valid until `expiresAt`. */
  | { ok: true; code: string; expiresAt: Date }
  /** Too soon or too many: the next code can be issued in `retryAfterSeconds`. */
  | { ok: false; retryAfterSeconds: number };

export type CodeCheck =
  | { outcome: 'verified' }
  | { outcome: 'wrong'; triesLeft: number }
  /** Too many wrong tries: nothing is accepted until a new code is issued. */
  | { outcome: 'locked' }
  | { outcome: 'expired' }
  /** No code for this payout and link: never issued, already used, or issued for a link since rotated. */
  | { outcome: 'no_code' }
  /** This client tried too often (across payouts): try again in `retryAfterSeconds`. */
  | { outcome: 'rate_limited'; retryAfterSeconds: number };

/** Advisory lock namespaces (the two-integer form, apart from the migrations' one-bigint lock). */
const PAYOUT_LOCK_NAMESPACE = 704_001;
const CLIENT_LOCK_NAMESPACE = 704_002;
const MAX_ID_LENGTH = 191;
const MAX_CLIENT_KEY_LENGTH = 255;
const PURGE_BATCH_ROWS = 5_000;
const MAX_PURGE_BATCHES = 1_000;

const LOCK_SQL = 'SELECT pg_advisory_xact_lock($1::integer, hashtext($2::text))';

const RECENT_SENDS_SQL = `SELECT sent_at FROM claim_code_sends
  WHERE payout_id = $1 AND sent_at > $2::timestamptz ORDER BY sent_at`;

const FORGET_OLD_SENDS_SQL =
  'DELETE FROM claim_code_sends WHERE payout_id = $1 AND sent_at <= $2::timestamptz';

const RECORD_SEND_SQL = 'INSERT INTO claim_code_sends (payout_id, sent_at) VALUES ($1, $2::timestamptz)';

// The one row per payout: a new code replaces the old one, its tries and its use.
const STORE_CODE_SQL = `INSERT INTO claim_verification_codes
    (payout_id, link_id, code_hash, issued_at, expires_at, failed_attempts, verified_at)
  VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz, 0, NULL)
  ON CONFLICT (payout_id) DO UPDATE SET link_id = EXCLUDED.link_id, code_hash = EXCLUDED.code_hash,
    issued_at = EXCLUDED.issued_at, expires_at = EXCLUDED.expires_at, failed_attempts = 0, verified_at = NULL`;

const RECENT_ATTEMPTS_SQL = `SELECT attempted_at FROM claim_verification_attempts
  WHERE client_key_hash = $1 AND attempted_at > $2::timestamptz ORDER BY attempted_at`;

const FORGET_OLD_ATTEMPTS_SQL = `DELETE FROM claim_verification_attempts
  WHERE client_key_hash = $1 AND attempted_at <= $2::timestamptz`;

const RECORD_ATTEMPT_SQL = `INSERT INTO claim_verification_attempts (client_key_hash, attempted_at)
  VALUES ($1, $2::timestamptz)`;

const CURRENT_CODE_SQL = `SELECT link_id, code_hash, expires_at, failed_attempts, verified_at
  FROM claim_verification_codes WHERE payout_id = $1`;

const COUNT_WRONG_SQL = `UPDATE claim_verification_codes SET failed_attempts = failed_attempts + 1
  WHERE payout_id = $1 RETURNING failed_attempts`;

const MARK_USED_SQL =
  'UPDATE claim_verification_codes SET verified_at = $2::timestamptz WHERE payout_id = $1';

const REVOKE_SQL = 'DELETE FROM claim_verification_codes WHERE payout_id = $1';

const PURGE_SENDS_SQL = `DELETE FROM claim_code_sends WHERE ctid IN (
  SELECT ctid FROM claim_code_sends WHERE sent_at <= $1::timestamptz LIMIT $2::integer)`;
const PURGE_ATTEMPTS_SQL = `DELETE FROM claim_verification_attempts WHERE ctid IN (
  SELECT ctid FROM claim_verification_attempts WHERE attempted_at <= $1::timestamptz LIMIT $2::integer)`;
const PURGE_CODES_SQL = `DELETE FROM claim_verification_codes WHERE payout_id IN (
  SELECT payout_id FROM claim_verification_codes WHERE expires_at <= $1::timestamptz LIMIT $2::integer)`;

interface CodeRow {
  link_id: string;
  code_hash: string;
  expires_at: Date | string;
  failed_attempts: number;
  verified_at: Date | string | null;
}

/**
 * Verification codes for link delivery, in PostgreSQL (PGlite or a server). A code is stored only
 * as an HMAC-SHA256 under a server key, bound to the payout and the link id, and compared in
 * constant time. Each payout's codes, and each client's attempts, are serialised by transaction
 * advisory locks, so concurrent guesses are counted exactly, across processes. Time is the
 * caller's `now` (Clock.now(environment): the sandbox clock may run ahead). Nothing here logs,
 * and no error carries a code.
 */
export class VerificationCodeStore {
  readonly #db: SqlClient;
  readonly #hmacKey: Buffer;

  constructor(db: SqlClient, hmacKey: Buffer) {
    if (!Buffer.isBuffer(hmacKey) || hmacKey.length < 32) {
      throw new Error('the verification code HMAC key must be at least 32 bytes');
    }
    this.#db = db;
    this.#hmacKey = Buffer.from(hmacKey);
  }

  /**
   * Issues a new code for the payout's current link, replacing any earlier code (its tries and
   * lock go with it), unless the resend limits say wait.
   */
  async issue(input: { payoutId: string; linkId: string; now: Date }): Promise<CodeIssue> {
    const { payoutId, linkId, now } = input;
    checkId(payoutId, 'payoutId');
    checkId(linkId, 'linkId');
    checkTime(now);
    const limits = VERIFICATION_CODE_LIMITS;
    return this.#db.transaction(async (tx) => {
      await tx.query(LOCK_SQL, [PAYOUT_LOCK_NAMESPACE, payoutId]);
      const windowStart = iso(now.getTime() - limits.sendWindowMs);
      await tx.query(FORGET_OLD_SENDS_SQL, [payoutId, windowStart]);
      const sends = await tx.query<{ sent_at: Date | string }>(RECENT_SENDS_SQL, [payoutId, windowStart]);
      const sentAt = sends.rows.map((row) => timeOf(row.sent_at));
      const nextAllowedMs = nextIssueMs(sentAt);
      if (now.getTime() < nextAllowedMs) {
        return { ok: false, retryAfterSeconds: secondsUntil(nextAllowedMs, now) };
      }
      const code = String(randomInt(0, 10 ** limits.codeDigits)).padStart(limits.codeDigits, '0');
      const expiresAt = new Date(now.getTime() + limits.codeTtlMs);
      await tx.query(STORE_CODE_SQL, [
        payoutId,
        linkId,
        this.#codeHash(payoutId, linkId, code),
        now.toISOString(),
        expiresAt.toISOString(),
      ]);
      await tx.query(RECORD_SEND_SQL, [payoutId, now.toISOString()]);
      return { ok: true, code, expiresAt };
    });
  }

  /**
   * Whether a code sent for this link can still verify: issued, not expired, not used, not locked.
   * The pages then ask for that code rather than offering to send one, so a reload or a return
   * through the link lands where the recipient left off.
   */
  async hasOutstandingCode(input: { payoutId: string; linkId: string; now: Date }): Promise<boolean> {
    const { payoutId, linkId, now } = input;
    checkId(payoutId, 'payoutId');
    checkId(linkId, 'linkId');
    checkTime(now);
    const found = await this.#db.query<CodeRow>(CURRENT_CODE_SQL, [payoutId]);
    const row = found.rows[0];
    return (
      row !== undefined &&
      row.link_id === linkId &&
      row.verified_at === null &&
      row.failed_attempts < VERIFICATION_CODE_LIMITS.maxWrongAttempts &&
      now.getTime() < timeOf(row.expires_at)
    );
  }

  /** When the next code may be issued for the payout (`now` itself when it may be issued at once). */
  async nextIssueAt(payoutId: string, now: Date): Promise<Date> {
    checkId(payoutId, 'payoutId');
    checkTime(now);
    const sends = await this.#db.query<{ sent_at: Date | string }>(RECENT_SENDS_SQL, [
      payoutId,
      iso(now.getTime() - VERIFICATION_CODE_LIMITS.sendWindowMs),
    ]);
    return new Date(Math.max(now.getTime(), nextIssueMs(sends.rows.map((row) => timeOf(row.sent_at)))));
  }

  /**
   * Checks a code typed by the recipient. Every call counts against the client's limit; a wrong
   * code also counts against the code's tries. A right code is used up: it verifies once.
   * `clientKey` identifies the caller across payouts (the request's IP address); it is stored
   * only as an HMAC.
   */
  async verify(input: {
    payoutId: string;
    linkId: string;
    code: string;
    clientKey: string;
    now: Date;
  }): Promise<CodeCheck> {
    const { payoutId, linkId, code, clientKey, now } = input;
    checkId(payoutId, 'payoutId');
    checkId(linkId, 'linkId');
    checkTime(now);
    if (typeof code !== 'string') throw new TypeError('code must be a string');
    if (typeof clientKey !== 'string' || clientKey.length === 0 || clientKey.length > MAX_CLIENT_KEY_LENGTH) {
      throw new RangeError(`clientKey must be a string of 1 to ${MAX_CLIENT_KEY_LENGTH} characters`);
    }
    const limits = VERIFICATION_CODE_LIMITS;
    const clientHash = this.#mac(['client', clientKey]);
    return this.#db.transaction(async (tx) => {
      // Always client first, then payout: one order everywhere, so two verifies cannot deadlock.
      await tx.query(LOCK_SQL, [CLIENT_LOCK_NAMESPACE, clientHash]);
      const limited = await this.#countClientAttempt(tx, clientHash, now);
      if (limited) return limited;

      await tx.query(LOCK_SQL, [PAYOUT_LOCK_NAMESPACE, payoutId]);
      const found = await tx.query<CodeRow>(CURRENT_CODE_SQL, [payoutId]);
      const row = found.rows[0];
      if (!row || row.link_id !== linkId || row.verified_at !== null) return { outcome: 'no_code' };
      if (row.failed_attempts >= limits.maxWrongAttempts) return { outcome: 'locked' };
      if (now.getTime() >= timeOf(row.expires_at)) return { outcome: 'expired' };

      if (sameHash(row.code_hash, this.#codeHash(payoutId, linkId, code))) {
        await tx.query(MARK_USED_SQL, [payoutId, now.toISOString()]);
        return { outcome: 'verified' };
      }
      const counted = await tx.query<{ failed_attempts: number }>(COUNT_WRONG_SQL, [payoutId]);
      const failed = counted.rows[0]?.failed_attempts ?? limits.maxWrongAttempts;
      return failed >= limits.maxWrongAttempts
        ? { outcome: 'locked' }
        : { outcome: 'wrong', triesLeft: limits.maxWrongAttempts - failed };
    });
  }

  /** Deletes the payout's code (for example when its link is rotated or the payout ends). */
  async revoke(payoutId: string): Promise<void> {
    checkId(payoutId, 'payoutId');
    await this.#db.query(REVOKE_SQL, [payoutId]);
  }

  /**
   * Deletes send and attempt records older than their windows and codes expired before `now`
   * (they can only answer `expired`, which a deleted code answers as `no_code`). For a periodic
   * job; the tables stay correct without it. Returns the rows deleted.
   */
  async purgeExpired(now: Date): Promise<number> {
    checkTime(now);
    const limits = VERIFICATION_CODE_LIMITS;
    let deleted = 0;
    for (const [sql, before] of [
      [PURGE_SENDS_SQL, iso(now.getTime() - limits.sendWindowMs)],
      [PURGE_ATTEMPTS_SQL, iso(now.getTime() - limits.clientWindowMs)],
      [PURGE_CODES_SQL, now.toISOString()],
    ] as const) {
      for (let batch = 0; batch < MAX_PURGE_BATCHES; batch += 1) {
        const result = await this.#db.query(sql, [before, PURGE_BATCH_ROWS]);
        deleted += result.rowCount;
        if (result.rowCount < PURGE_BATCH_ROWS) break;
      }
    }
    return deleted;
  }

  /** Records one attempt for the client, or answers rate_limited when its window is full. */
  async #countClientAttempt(
    tx: SqlQueryable,
    clientHash: string,
    now: Date,
  ): Promise<Extract<CodeCheck, { outcome: 'rate_limited' }> | null> {
    const limits = VERIFICATION_CODE_LIMITS;
    const windowStart = iso(now.getTime() - limits.clientWindowMs);
    await tx.query(FORGET_OLD_ATTEMPTS_SQL, [clientHash, windowStart]);
    const attempts = await tx.query<{ attempted_at: Date | string }>(RECENT_ATTEMPTS_SQL, [
      clientHash,
      windowStart,
    ]);
    if (attempts.rows.length >= limits.maxClientAttempts) {
      // The window frees up when the oldest attempt that keeps it full falls out of it.
      const blocking = attempts.rows[attempts.rows.length - limits.maxClientAttempts]!;
      const retryMs = timeOf(blocking.attempted_at) + limits.clientWindowMs;
      return { outcome: 'rate_limited', retryAfterSeconds: secondsUntil(retryMs, now) };
    }
    await tx.query(RECORD_ATTEMPT_SQL, [clientHash, now.toISOString()]);
    return null;
  }

  #codeHash(payoutId: string, linkId: string, code: string): string {
    return this.#mac(['code', payoutId, linkId, code]);
  }

  /** JSON of the parts: unambiguous whatever characters the ids hold. */
  #mac(parts: string[]): string {
    return createHmac('sha256', this.#hmacKey).update(JSON.stringify(parts)).digest('hex');
  }
}

/** The earliest time the next code may go out, given this payout's sends in the window (oldest first). */
function nextIssueMs(sentAt: number[]): number {
  const limits = VERIFICATION_CODE_LIMITS;
  let next = Number.NEGATIVE_INFINITY;
  const last = sentAt[sentAt.length - 1];
  if (last !== undefined) next = last + limits.resendIntervalMs;
  if (sentAt.length >= limits.maxSendsPerWindow) {
    const blocking = sentAt[sentAt.length - limits.maxSendsPerWindow]!;
    next = Math.max(next, blocking + limits.sendWindowMs);
  }
  return next;
}

function sameHash(storedHex: string, candidateHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const candidate = Buffer.from(candidateHex, 'hex');
  return stored.length === candidate.length && timingSafeEqual(stored, candidate);
}

function secondsUntil(ms: number, now: Date): number {
  return Math.max(1, Math.ceil((ms - now.getTime()) / 1000));
}

/** Both drivers return timestamptz as a Date; a string is accepted too, so a driver change is harmless. */
function timeOf(value: Date | string): number {
  return value instanceof Date ? value.getTime() : Date.parse(value);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function checkId(value: string, name: string): void {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ID_LENGTH) {
    throw new RangeError(`${name} must be a string of 1 to ${MAX_ID_LENGTH} characters`);
  }
}

function checkTime(now: Date): void {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError('now must be a valid Date');
}
