-- Idempotency keys (docs/design.md#idempotency): one row per key, scoped to account + environment + method +
-- path, kept 30 days. The row is claimed in_flight before the command runs, with the resource id
-- chosen for the key (a retry after an unknown outcome reuses it) and a lease; it is completed
-- with the answer, success or rejection, which is replayed for the key from then on.
-- request_hash is the SHA-256 of the canonical request, so the same key with other inputs is
-- detected (formance).

CREATE TABLE idempotency_keys (
  account_id       text NOT NULL,
  environment      text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  method           text NOT NULL,
  path             text NOT NULL,
  idempotency_key  text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 255),
  request_hash     text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  state            text NOT NULL CHECK (state IN ('in_flight', 'completed')),
  response_status  integer CHECK (response_status BETWEEN 100 AND 599),
  response_body    jsonb,
  -- Chosen for the key before the command ran (for a create, the payout id).
  resource_id      text NOT NULL,
  -- Lease of the attempt in flight; NULL when released (outcome unknown) or completed.
  locked_until     timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  completed_at     timestamptz,
  PRIMARY KEY (account_id, environment, method, path, idempotency_key),
  CONSTRAINT idempotency_keys_state_shape CHECK (
    (state = 'in_flight' AND response_status IS NULL AND response_body IS NULL AND completed_at IS NULL)
    OR (state = 'completed' AND response_status IS NOT NULL AND completed_at IS NOT NULL AND locked_until IS NULL)
  )
);

-- The 30-day purge deletes by age.
CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created_at);
