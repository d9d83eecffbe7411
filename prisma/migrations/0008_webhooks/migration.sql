-- Payout webhooks (docs/design.md#payout-webhooks): the merchant's endpoint per account and
-- environment, the events sent to it, and every delivery and attempt (the delivery log). None of
-- this is history of money: the event store holds that. Times marked "environment clock" come from
-- the caller's clock for the row's environment (the sandbox clock may run ahead of real time), so
-- the sandbox's retry schedule follows the operator's sandbox clock.

-- One endpoint per account and environment. Saving again replaces the URL and the secret (and gives
-- a new endpoint_id); removing it deletes the row, so the secret is gone. The signing secret is kept
-- only as AES-256-GCM ciphertext whose associated data is endpoint_id (invariant 6).
CREATE TABLE payout_webhook_endpoints (
  account_id         text NOT NULL,
  environment        text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  endpoint_id        text NOT NULL UNIQUE CHECK (endpoint_id ~ '^we_[0-9a-f]{24}$'),
  url                text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
  secret_ciphertext  text NOT NULL CHECK (secret_ciphertext LIKE 'v1.%'),
  created_at         timestamptz(3) NOT NULL,
  PRIMARY KEY (account_id, environment),
  FOREIGN KEY (account_id, environment) REFERENCES account_environments (account_id, environment)
);

-- One row per public event. `body` is the exact text every attempt sends (signatures cover the raw
-- bytes, so it is never rebuilt). A paid payout has exactly one payout.updated event (invariant 4):
-- its id is derived from the payout id, and the partial unique index refuses a second one.
CREATE TABLE webhook_events (
  event_id         text PRIMARY KEY CHECK (event_id ~ '^evt_[0-9a-z_]{8,64}$'),
  account_id       text NOT NULL,
  environment      text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  event_type       text NOT NULL CHECK (event_type IN ('payout.updated', 'payout.test')),
  payout_id        text,
  -- The PayoutPaid event in the event store that this event reports.
  source_event_id  uuid UNIQUE,
  body             text NOT NULL CHECK (char_length(body) <= 65536),
  -- Environment clock.
  created_at       timestamptz(3) NOT NULL,
  CONSTRAINT webhook_events_payout_shape CHECK (
    (event_type = 'payout.updated') = (payout_id IS NOT NULL AND source_event_id IS NOT NULL)),
  CONSTRAINT webhook_events_test_id CHECK ((event_type = 'payout.test') = (event_id LIKE 'evt\_test\_%'))
);

CREATE UNIQUE INDEX webhook_events_one_per_paid_payout ON webhook_events (payout_id)
  WHERE event_type = 'payout.updated';
CREATE INDEX webhook_events_by_account ON webhook_events (account_id, environment, created_at DESC, event_id DESC);

-- A delivery is one run of attempts of one event to the environment's endpoint: the automatic one
-- (five attempts on the schedule), a test (one attempt) or a manual resend (one attempt).
-- A dispatcher claims due rows with FOR UPDATE SKIP LOCKED and a lease (lease_token until
-- lease_expires_at, real time): while the lease holds no other dispatcher claims the row, so
-- several dispatchers never make the same attempt twice; a dispatcher that dies mid-attempt loses
-- the lease and the attempt is made again (at-least-once).
CREATE TABLE webhook_deliveries (
  delivery_id       text PRIMARY KEY CHECK (delivery_id ~ '^whd_[0-9a-f]{24}$'),
  event_id          text NOT NULL REFERENCES webhook_events (event_id),
  account_id        text NOT NULL,
  environment       text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  trigger           text NOT NULL CHECK (trigger IN ('automatic', 'test', 'manual')),
  max_attempts      integer NOT NULL CHECK (max_attempts BETWEEN 1 AND 5),
  attempts_made     integer NOT NULL DEFAULT 0 CHECK (attempts_made BETWEEN 0 AND max_attempts),
  status            text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
  -- Environment clock; set exactly while pending.
  next_attempt_at   timestamptz(3),
  lease_token       text,
  lease_expires_at  timestamptz,
  -- Environment clock.
  created_at        timestamptz(3) NOT NULL,
  finished_at       timestamptz(3),
  CONSTRAINT webhook_deliveries_schedule CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
  CONSTRAINT webhook_deliveries_finished CHECK ((status = 'pending') = (finished_at IS NULL))
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_pending_by_account ON webhook_deliveries (account_id, environment)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id, created_at);

-- Every attempt, as the merchant's delivery log shows it. A row is written when the attempt has
-- finished; an attempt cut short by a dispatcher's death is made again under the same number.
CREATE TABLE webhook_attempts (
  delivery_id          text NOT NULL REFERENCES webhook_deliveries (delivery_id),
  attempt_number       integer NOT NULL CHECK (attempt_number BETWEEN 1 AND 5),
  event_id             text NOT NULL REFERENCES webhook_events (event_id),
  -- The endpoint and URL at the time of the attempt; NULL when there was nothing to send to.
  endpoint_id          text,
  url                  text,
  -- Environment clock.
  attempted_at         timestamptz(3) NOT NULL,
  -- The signature's `t` (real unix seconds: the receiver checks it against its own clock).
  signature_timestamp  bigint,
  status_code          integer CHECK (status_code BETWEEN 100 AND 999),
  latency_ms           integer NOT NULL CHECK (latency_ms >= 0),
  delivered            boolean NOT NULL,
  error                text CHECK (char_length(error) <= 500),
  response_body        text CHECK (char_length(response_body) <= 1024),
  PRIMARY KEY (delivery_id, attempt_number),
  -- Only a 2xx answer counts as delivered (docs/design.md#schedule).
  CONSTRAINT webhook_attempts_delivered_is_2xx CHECK (NOT delivered OR status_code BETWEEN 200 AND 299)
);

CREATE INDEX webhook_attempts_by_event ON webhook_attempts (event_id);
