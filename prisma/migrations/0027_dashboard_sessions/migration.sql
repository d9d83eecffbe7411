-- The merchant dashboard's pages (docs/dashboard.md): sign-in sessions and the sign-in lockout.
-- In the database, not in a process, so every gateway process shares them. Access state, not
-- history: nothing here is in the event store. Every time comes from the caller's clock.

-- One row per signed-in browser. The cookie holds a random token; only its SHA-256 is stored, so
-- reading this table opens no session. expires_at is last_seen_at plus the idle timeout, moved
-- forward by use; a sign-out deletes the row.
CREATE TABLE dashboard_sessions (
  session_id    text PRIMARY KEY,
  token_hash    text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  account_id    text NOT NULL REFERENCES accounts (account_id),
  environment   text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  created_at    timestamptz NOT NULL,
  last_seen_at  timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL
);

CREATE INDEX dashboard_sessions_by_expiry ON dashboard_sessions (expires_at);

-- Wrong admin tokens sent to the sign-in form, one row each, by client address: the window the
-- lockout counts over. Rows older than the window are deleted as new ones arrive.
CREATE TABLE dashboard_sign_in_failures (
  client_address  text NOT NULL CHECK (char_length(client_address) BETWEEN 1 AND 64),
  failed_at       timestamptz NOT NULL
);

CREATE INDEX dashboard_sign_in_failures_by_address ON dashboard_sign_in_failures (client_address, failed_at);
CREATE INDEX dashboard_sign_in_failures_by_time ON dashboard_sign_in_failures (failed_at);

-- An address locked out of sign-in until locked_until, whatever token it sends.
CREATE TABLE dashboard_sign_in_locks (
  client_address  text PRIMARY KEY CHECK (char_length(client_address) BETWEEN 1 AND 64),
  locked_until    timestamptz NOT NULL
);
