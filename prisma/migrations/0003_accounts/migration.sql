-- Accounts, their per-environment settings and their credentials (docs/design.md#credentials-and-scopes).
-- Nothing secret is stored in clear (invariant 6): admin tokens and credential tokens only as
-- SHA-256 verifiers (64 lowercase hex characters, enforced below), the checkout API secret only
-- as AES-256-GCM ciphertext.

CREATE TABLE accounts (
  account_id            text PRIMARY KEY,
  name                  text NOT NULL,
  region                text NOT NULL,
  admin_token_verifier  text NOT NULL UNIQUE CHECK (admin_token_verifier ~ '^[0-9a-f]{64}$'),
  payouts_approved      boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL DEFAULT now()
);

-- One row per account and environment, both created with the account.
CREATE TABLE account_environments (
  account_id            text NOT NULL REFERENCES accounts (account_id),
  environment           text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  payouts_enabled       boolean NOT NULL DEFAULT false,
  return_url_origins    text[] NOT NULL DEFAULT '{}',
  checkout_webhook_url  text,
  PRIMARY KEY (account_id, environment)
);

CREATE TABLE credentials (
  credential_id      text PRIMARY KEY,
  account_id         text NOT NULL REFERENCES accounts (account_id),
  environment        text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  kind               text NOT NULL CHECK (kind IN ('checkout', 'payout')),
  scopes             text[] NOT NULL CHECK (scopes <@ ARRAY['payouts:read', 'payouts:write']::text[]),
  token_verifier     text NOT NULL UNIQUE CHECK (token_verifier ~ '^[0-9a-f]{64}$'),
  -- The last 4 characters of the token, for display only.
  token_hint         text NOT NULL CHECK (char_length(token_hint) = 4),
  -- The checkout API secret, encrypted (AES-256-GCM); checkout credentials only.
  secret_ciphertext  text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  revoked_at         timestamptz,
  FOREIGN KEY (account_id, environment) REFERENCES account_environments (account_id, environment),
  CHECK (kind = 'payout' OR cardinality(scopes) = 0),
  CHECK ((kind = 'checkout') = (secret_ciphertext IS NOT NULL))
);

CREATE INDEX credentials_by_account ON credentials (account_id);
