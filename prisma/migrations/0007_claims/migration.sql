-- The recipient's claim (issue 4): receiving details, verification codes and page sessions.
-- None of this is in the event store: receiving details must never reach an event, a read model,
-- a webhook or a log, and codes and sessions are short-lived access state, not history.
-- Every time that something expires by comes from the caller's clock (the sandbox clock may run
-- ahead of real time), never from now(), so expiry follows the environment's time.

-- The recipient's receiving details, one row per payout, replaced while the recipient changes them.
-- details_ciphertext is SecretBox's AES-256-GCM `v1.<iv>.<tag>.<ciphertext>` of the details as
-- JSON, with the payout id in the associated data: copied onto another payout's row, it no longer
-- decrypts.
CREATE TABLE claim_receiving_details (
  payout_id           text PRIMARY KEY CHECK (char_length(payout_id) BETWEEN 1 AND 191),
  details_ciphertext  text NOT NULL CHECK (details_ciphertext LIKE 'v1.%'),
  -- For the record only (the database's clock); nothing expires by it.
  saved_at            timestamptz NOT NULL DEFAULT now()
);

-- The current e-mailed verification code of a link payout: one row per payout, so issuing a new
-- code replaces (invalidates) the previous one. code_hash is an HMAC-SHA256 under a server key
-- (a 6-digit code is too small a space for a plain hash to hide it), over the payout id, the link
-- id and the code: a code is useless for any other link, so rotating the link kills it.
CREATE TABLE claim_verification_codes (
  payout_id        text PRIMARY KEY CHECK (char_length(payout_id) BETWEEN 1 AND 191),
  link_id          text NOT NULL CHECK (char_length(link_id) BETWEEN 1 AND 191),
  code_hash        text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  issued_at        timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  failed_attempts  integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
  -- Set by the one successful verification; a used code is never accepted again.
  verified_at      timestamptz,
  CONSTRAINT claim_verification_codes_expiry_after_issue CHECK (expires_at > issued_at)
);

-- When codes were sent, per payout, for the resend limits (one per 30 s, five per hour). Rows
-- older than the longest window are deleted as new ones are written and by the purge.
CREATE TABLE claim_code_sends (
  payout_id  text NOT NULL CHECK (char_length(payout_id) BETWEEN 1 AND 191),
  sent_at    timestamptz NOT NULL
);

CREATE INDEX claim_code_sends_by_payout ON claim_code_sends (payout_id, sent_at);
CREATE INDEX claim_code_sends_by_time ON claim_code_sends (sent_at);

-- Verification attempts per client (the caller's key, usually its IP address), across payouts,
-- for the per-client limit. The key is stored as an HMAC: an IP address is personal data, and
-- the IPv4 space is small enough to reverse a plain hash.
CREATE TABLE claim_verification_attempts (
  client_key_hash  text NOT NULL CHECK (client_key_hash ~ '^[0-9a-f]{64}$'),
  attempted_at     timestamptz NOT NULL
);

CREATE INDEX claim_verification_attempts_by_client ON claim_verification_attempts (client_key_hash, attempted_at);
CREATE INDEX claim_verification_attempts_by_time ON claim_verification_attempts (attempted_at);

-- Sessions of the recipient's pages. The cookie carries a random token; only its SHA-256 is
-- stored, so a copy of this table opens no session. access_id is the claim link id or the
-- redirect session id the session came in through: when that access is replaced (link rotated,
-- new redirect session) its sessions are deleted. csrf_secret is rendered into the pages' forms
-- and is worthless without the cookie, so it is kept as is.
CREATE TABLE claim_page_sessions (
  session_id       text PRIMARY KEY,
  token_hash       text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  payout_id        text NOT NULL CHECK (char_length(payout_id) BETWEEN 1 AND 191),
  access_id        text NOT NULL CHECK (char_length(access_id) BETWEEN 1 AND 191),
  verified         boolean NOT NULL DEFAULT false,
  csrf_secret      text NOT NULL,
  created_at       timestamptz NOT NULL,
  last_seen_at     timestamptz NOT NULL,
  -- The latest the session can live however active it is: an absolute lifetime, and never past
  -- the payout's payout_expires_at.
  hard_expires_at  timestamptz NOT NULL,
  -- min(last_seen_at + idle timeout, hard_expires_at): moved forward by use.
  expires_at       timestamptz NOT NULL,
  CONSTRAINT claim_page_sessions_expiry_bounded CHECK (expires_at <= hard_expires_at)
);

CREATE INDEX claim_page_sessions_by_access ON claim_page_sessions (payout_id, access_id);
CREATE INDEX claim_page_sessions_by_expiry ON claim_page_sessions (expires_at);
