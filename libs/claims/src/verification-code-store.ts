import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import {
  CodeCheck,
  CodeIssue,
  nextIssueMs,
  secondsUntil,
  VERIFICATION_CODE_LIMITS,
} from './verification-code-limits';
import {
  CLIENT_LOCK_NAMESPACE,
  CodeRow,
  COUNT_WRONG_SQL,
  CURRENT_CODE_SQL,
  FORGET_OLD_ATTEMPTS_SQL,
  FORGET_OLD_SENDS_SQL,
  LOCK_SQL,
  MARK_USED_SQL,
  PAYOUT_LOCK_NAMESPACE,
  PURGE_ATTEMPTS_SQL,
  PURGE_CODES_SQL,
  PURGE_SENDS_SQL,
  RECENT_ATTEMPTS_SQL,
  RECENT_SENDS_SQL,
  RECORD_ATTEMPT_SQL,
  RECORD_SEND_SQL,
  REVOKE_SQL,
  STORE_CODE_SQL,
} from './verification-code-sql';

const MAX_ID_LENGTH = 191;
const MAX_CLIENT_KEY_LENGTH = 255;
const PURGE_BATCH_ROWS = 5_000;
const MAX_PURGE_BATCHES = 1_000;

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
  /**
   * During an ENCRYPTION_KEY rotation, the previous key's HMAC key: a code e-mailed just before
   * the switch still verifies (for its 10 minutes). Client keys are hashed under the current key
   * only, so a client's attempt window starts afresh once, at the switch.
   */
  readonly #previousHmacKey: Buffer | undefined;

  constructor(db: SqlClient, hmacKey: Buffer, previousHmacKey?: Buffer) {
    for (const key of [hmacKey, ...(previousHmacKey === undefined ? [] : [previousHmacKey])]) {
      if (!Buffer.isBuffer(key) || key.length < 32) {
        throw new Error('the verification code HMAC key must be at least 32 bytes');
      }
    }
    this.#db = db;
    this.#hmacKey = Buffer.from(hmacKey);
    this.#previousHmacKey = previousHmacKey === undefined ? undefined : Buffer.from(previousHmacKey);
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

      if (this.#matches(row.code_hash, payoutId, linkId, code)) {
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

  #codeHash(payoutId: string, linkId: string, code: string, key = this.#hmacKey): string {
    return this.#mac(['code', payoutId, linkId, code], key);
  }

  /** The stored hash is of this code, under the current key or, during a rotation, the previous one. */
  #matches(storedHex: string, payoutId: string, linkId: string, code: string): boolean {
    if (sameHash(storedHex, this.#codeHash(payoutId, linkId, code))) return true;
    const previous = this.#previousHmacKey;
    return previous !== undefined && sameHash(storedHex, this.#codeHash(payoutId, linkId, code, previous));
  }

  /** JSON of the parts: unambiguous whatever characters the ids hold. */
  #mac(parts: string[], key = this.#hmacKey): string {
    return createHmac('sha256', key).update(JSON.stringify(parts)).digest('hex');
  }
}

function sameHash(storedHex: string, candidateHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const candidate = Buffer.from(candidateHex, 'hex');
  return stored.length === candidate.length && timingSafeEqual(stored, candidate);
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
