// The statements of VerificationCodeStore (verification-code-store.ts), and the row it reads.

/** Advisory lock namespaces (the two-integer form, apart from the migrations' one-bigint lock). */
export const PAYOUT_LOCK_NAMESPACE = 704_001;
export const CLIENT_LOCK_NAMESPACE = 704_002;

export const LOCK_SQL = 'SELECT pg_advisory_xact_lock($1::integer, hashtext($2::text))';

export const RECENT_SENDS_SQL = `SELECT sent_at FROM claim_code_sends
  WHERE payout_id = $1 AND sent_at > $2::timestamptz ORDER BY sent_at`;

export const FORGET_OLD_SENDS_SQL =
  'DELETE FROM claim_code_sends WHERE payout_id = $1 AND sent_at <= $2::timestamptz';

export const RECORD_SEND_SQL =
  'INSERT INTO claim_code_sends (payout_id, sent_at) VALUES ($1, $2::timestamptz)';

// The one row per payout: a new code replaces the old one, its tries and its use.
export const STORE_CODE_SQL = `INSERT INTO claim_verification_codes
    (payout_id, link_id, code_hash, issued_at, expires_at, failed_attempts, verified_at)
  VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz, 0, NULL)
  ON CONFLICT (payout_id) DO UPDATE SET link_id = EXCLUDED.link_id, code_hash = EXCLUDED.code_hash,
    issued_at = EXCLUDED.issued_at, expires_at = EXCLUDED.expires_at, failed_attempts = 0, verified_at = NULL`;

export const RECENT_ATTEMPTS_SQL = `SELECT attempted_at FROM claim_verification_attempts
  WHERE client_key_hash = $1 AND attempted_at > $2::timestamptz ORDER BY attempted_at`;

export const FORGET_OLD_ATTEMPTS_SQL = `DELETE FROM claim_verification_attempts
  WHERE client_key_hash = $1 AND attempted_at <= $2::timestamptz`;

export const RECORD_ATTEMPT_SQL = `INSERT INTO claim_verification_attempts (client_key_hash, attempted_at)
  VALUES ($1, $2::timestamptz)`;

export const CURRENT_CODE_SQL = `SELECT link_id, code_hash, expires_at, failed_attempts, verified_at
  FROM claim_verification_codes WHERE payout_id = $1`;

export const COUNT_WRONG_SQL = `UPDATE claim_verification_codes SET failed_attempts = failed_attempts + 1
  WHERE payout_id = $1 RETURNING failed_attempts`;

export const MARK_USED_SQL =
  'UPDATE claim_verification_codes SET verified_at = $2::timestamptz WHERE payout_id = $1';

export const REVOKE_SQL = 'DELETE FROM claim_verification_codes WHERE payout_id = $1';

export const PURGE_SENDS_SQL = `DELETE FROM claim_code_sends WHERE ctid IN (
  SELECT ctid FROM claim_code_sends WHERE sent_at <= $1::timestamptz LIMIT $2::integer)`;
export const PURGE_ATTEMPTS_SQL = `DELETE FROM claim_verification_attempts WHERE ctid IN (
  SELECT ctid FROM claim_verification_attempts WHERE attempted_at <= $1::timestamptz LIMIT $2::integer)`;
export const PURGE_CODES_SQL = `DELETE FROM claim_verification_codes WHERE payout_id IN (
  SELECT payout_id FROM claim_verification_codes WHERE expires_at <= $1::timestamptz LIMIT $2::integer)`;

export interface CodeRow {
  link_id: string;
  code_hash: string;
  expires_at: Date | string;
  failed_attempts: number;
  verified_at: Date | string | null;
}
