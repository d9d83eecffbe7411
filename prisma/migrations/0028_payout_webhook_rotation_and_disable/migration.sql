-- Payout webhook endpoints (docs/webhooks.md): a rotated signing secret that keeps signing for 24
-- hours, and the automatic disabling of an endpoint whose every attempt has failed for 5 days.
-- Every time here is on the environment clock (the sandbox clock in the sandbox), like the
-- delivery schedule of migration 0008.

-- The secret a rotation replaced: its AES-256-GCM ciphertext exactly as it was stored (associated
-- data: endpoint_id, as the current secret's), and when it stops signing. Both are NULL outside an
-- overlap; the dispatcher discards them once the overlap is over.
ALTER TABLE payout_webhook_endpoints
  ADD COLUMN previous_secret_ciphertext text CHECK (previous_secret_ciphertext LIKE 'v1.%'),
  ADD COLUMN previous_secret_expires_at timestamptz(3),
  ADD COLUMN secret_rotated_at timestamptz(3),
  -- When the first failed attempt since the last delivered one (or since the endpoint was saved or
  -- enabled) was made; NULL while the last attempt was delivered.
  ADD COLUMN failing_since timestamptz(3),
  -- Set when an attempt fails more than 5 days after failing_since: automatic deliveries are then
  -- held (not attempted, still pending) until the endpoint is enabled again or saved again.
  ADD COLUMN disabled_at timestamptz(3),
  ADD COLUMN disabled_reason text CHECK (char_length(disabled_reason) <= 1000),
  ADD CONSTRAINT payout_webhook_endpoints_previous_secret
    CHECK ((previous_secret_ciphertext IS NULL) = (previous_secret_expires_at IS NULL)),
  ADD CONSTRAINT payout_webhook_endpoints_disabled CHECK ((disabled_at IS NULL) = (disabled_reason IS NULL));

CREATE INDEX payout_webhook_endpoints_previous_secret_expiry ON payout_webhook_endpoints (previous_secret_expires_at)
  WHERE previous_secret_expires_at IS NOT NULL;
