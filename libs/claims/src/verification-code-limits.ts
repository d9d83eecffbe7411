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

/** The earliest time the next code may go out, given this payout's sends in the window (oldest first). */
export function nextIssueMs(sentAt: number[]): number {
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

/** Whole seconds from `now` to `ms`, at least 1: what a Retry-After says. */
export function secondsUntil(ms: number, now: Date): number {
  return Math.max(1, Math.ceil((ms - now.getTime()) / 1000));
}
