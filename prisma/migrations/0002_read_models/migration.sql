-- Read models, built only from events by the projections. Every row carries the version of the
-- stream it was built from: applying an event at or below that version changes nothing, which
-- makes the projections idempotent and lets the inline (read-your-writes) and the asynchronous
-- projector write the same rows safely. Values come from events only, never from now(), so a
-- replay from position zero rebuilds them byte for byte.

CREATE TABLE payout_list (
  payout_id           text PRIMARY KEY,
  account_id          text NOT NULL,
  environment         text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  stream_version      integer NOT NULL,
  status              text NOT NULL,
  status_version      integer NOT NULL,
  amount              numeric(20, 2) NOT NULL,
  fee                 numeric(20, 2) NOT NULL,
  total_reserved      numeric(20, 2) NOT NULL,
  currency            text NOT NULL,
  funds_released      boolean NOT NULL,
  merchant_reference  text NOT NULL,
  customer_id         text,
  delivery            text NOT NULL,
  source              text NOT NULL,
  case_reference      text,
  selected_method     text,
  safe_reason         text,
  receipt_reference   text,
  created_at          timestamptz(3) NOT NULL,
  accepted_at         timestamptz(3),
  payout_expires_at   timestamptz(3) NOT NULL,
  updated_at          timestamptz(3) NOT NULL
);

CREATE INDEX payout_list_by_created ON payout_list (account_id, environment, created_at DESC, payout_id DESC);
CREATE INDEX payout_list_by_reference ON payout_list (account_id, environment, merchant_reference);
CREATE INDEX payout_list_by_customer ON payout_list (account_id, environment, customer_id, created_at DESC);
CREATE INDEX payout_list_by_status ON payout_list (account_id, environment, status, created_at DESC);

CREATE TABLE payout_balances (
  account_id                text NOT NULL,
  environment               text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  ledger_version            integer NOT NULL,
  currency                  text NOT NULL,
  funds_in                  numeric(20, 2) NOT NULL,
  available                 numeric(20, 2) NOT NULL,
  customer_payout_holds     numeric(20, 2) NOT NULL,
  customer_payouts_settled  numeric(20, 2) NOT NULL,
  merchant_settlement_holds numeric(20, 2) NOT NULL,
  retained_target           numeric(20, 2) NOT NULL,
  fee_per_payout            numeric(20, 2),
  min_payout                numeric(20, 2),
  max_payout                numeric(20, 2),
  max_open_exposure         numeric(20, 2),
  max_pending_per_customer  integer,
  updated_at                timestamptz(3) NOT NULL,
  PRIMARY KEY (account_id, environment)
);
