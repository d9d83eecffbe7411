-- The funds flow's own work lists (docs/design.md#funds-flow), written in the same transaction as the ledger
-- events they follow (planned rows of the command's plan), so they are never behind the ledger and
-- need no feed subscription. The read side's tables (balances, balance transactions, settlements)
-- are not these: these only tell the worker where work is waiting.

-- Ledgers with pending proceeds, and when the soonest of them clears. Set by the plan that records
-- proceeds (the earlier of the two times) and by the plan that matures them (the next one, or the
-- row removed when none is left), both under the ledger's expected version.
CREATE TABLE funds_maturing (
  ledger_stream_id  text PRIMARY KEY,
  environment       text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  next_due_at       timestamptz NOT NULL
);
CREATE INDEX funds_maturing_due ON funds_maturing (environment, next_due_at);

-- Settlements started and not yet paid or failed: the worker sends them through the settlement
-- rail (again after a crash; the rail is idempotent per settlement id) and records the answer.
CREATE TABLE settlement_jobs (
  settlement_id     text PRIMARY KEY,
  ledger_stream_id  text NOT NULL,
  environment       text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  amount            numeric(20, 2) NOT NULL CHECK (amount > 0),
  started_at        timestamptz NOT NULL,
  completed_at      timestamptz
);
CREATE INDEX settlement_jobs_open ON settlement_jobs (started_at) WHERE completed_at IS NULL;

-- Daily automatic runs done, per environment and day (the day of the run's SETTLEMENT_HOUR_UTC on
-- that environment's clock), so a worker owes a run only once; the settlement ids of a run are
-- deterministic, so two workers running the same day's run still settle a ledger once. The first
-- row of an environment is the run current when a worker first looked, recorded without settling:
-- automatic settlement starts at the next SETTLEMENT_HOUR_UTC, never at a deployment's start.
CREATE TABLE settlement_runs (
  environment   text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  day           text NOT NULL,
  completed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment, day)
);

-- The simulated settlement rail: the sandbox's chosen outcome (production always pays) and each
-- transfer by settlement id, so asking twice answers the first answer.
CREATE TABLE settlement_rail_settings (
  environment  text PRIMARY KEY CHECK (environment = 'sandbox'),
  outcome      text NOT NULL CHECK (outcome IN ('paid', 'failed')),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE settlement_rail_transfers (
  settlement_id   text PRIMARY KEY,
  account_id      text NOT NULL,
  environment     text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  currency        text NOT NULL,
  amount          numeric(20, 2) NOT NULL CHECK (amount > 0),
  status          text NOT NULL CHECK (status IN ('paid', 'failed')),
  failure_reason  text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
