-- Funds flow (docs/design.md#funds-flow): one ledger per account, environment and currency, so one balance row
-- per ledger; the figures of proceeds and settlements beside the payout ones; and two new read
-- models, built from the ledger's events like the balance: every money movement as a balance
-- transaction, and every settlement. `funds_in` keeps its meaning: matured proceeds plus operator
-- credits (everything that became available).

ALTER TABLE payout_balances
  ADD COLUMN pending          numeric(20, 2) NOT NULL DEFAULT 0,
  ADD COLUMN gross_proceeds   numeric(20, 2) NOT NULL DEFAULT 0,
  ADD COLUMN processing_fees  numeric(20, 2) NOT NULL DEFAULT 0,
  ADD COLUMN matured_proceeds numeric(20, 2) NOT NULL DEFAULT 0,
  ADD COLUMN operator_credits numeric(20, 2) NOT NULL DEFAULT 0,
  ADD COLUMN settlements_paid numeric(20, 2) NOT NULL DEFAULT 0;

-- Every existing row is a USD ledger's (the only currency payouts draw on).
ALTER TABLE payout_balances ALTER COLUMN currency TYPE text COLLATE "C";
ALTER TABLE payout_balances DROP CONSTRAINT payout_balances_pkey;
ALTER TABLE payout_balances ADD PRIMARY KEY (account_id, environment, currency);

-- One row per money movement of a ledger (the table of the design: type, signed amount, fee and
-- net, whose sum over a ledger is pending + available). The id is derived from the ledger's stream
-- id, the event's version and the row's type, so a rebuild writes the same ids. `ledger_version`
-- is the version of the event that made the row: the balance row's ledger_version is the cursor
-- that says which rows exist. The running balances are the ledger's after this movement.
CREATE TABLE balance_transactions (
  id                                text COLLATE "C" PRIMARY KEY CHECK (id ~ '^txn_[0-9a-f]{24}$'),
  account_id                        text COLLATE "C" NOT NULL,
  environment                       text COLLATE "C" NOT NULL CHECK (environment IN ('production', 'sandbox')),
  currency                          text COLLATE "C" NOT NULL,
  ledger_version                    integer NOT NULL,
  -- The row's place among its event's rows (a payment before its fee): the last key of the order.
  event_row                         integer NOT NULL CHECK (event_row >= 0),
  type                              text COLLATE "C" NOT NULL CHECK (type IN ('payment', 'payment_fee',
    'payout_reserved', 'payout_released', 'payout_paid', 'settlement', 'settlement_failed', 'adjustment')),
  amount                            numeric(20, 2) NOT NULL,
  fee                               numeric(20, 2) NOT NULL,
  net                               numeric(20, 2) NOT NULL,
  status                            text COLLATE "C" NOT NULL
    CHECK (status IN ('pending', 'available', 'in_transit', 'paid', 'failed')),
  available_on                      timestamptz(3),
  order_id                          bigint,
  payout_id                         text COLLATE "C",
  settlement_id                     text COLLATE "C",
  description                       text NOT NULL,
  running_pending                   numeric(20, 2) NOT NULL,
  running_available                 numeric(20, 2) NOT NULL,
  running_customer_payout_holds     numeric(20, 2) NOT NULL,
  running_merchant_settlement_holds numeric(20, 2) NOT NULL,
  -- The settlement that covers this row: set when a settlement starts, for every row of its ledger
  -- that is not pending and not yet covered.
  included_in_settlement            text COLLATE "C",
  created_at                        timestamptz(3) NOT NULL
);

-- The list: one account and environment, newest first (then the later event first, then the later
-- row of one event first).
CREATE INDEX balance_transactions_newest
  ON balance_transactions (account_id, environment, created_at DESC, ledger_version DESC, event_row DESC);
CREATE INDEX balance_transactions_by_type
  ON balance_transactions (account_id, environment, type, created_at DESC);
CREATE INDEX balance_transactions_by_currency
  ON balance_transactions (account_id, environment, currency, created_at DESC);
-- A settlement's rows (GET /api/settlements/{id}, the settlement_id filter).
CREATE INDEX balance_transactions_by_settlement ON balance_transactions (included_in_settlement);
-- The rows a starting settlement takes: its ledger's rows not covered yet.
CREATE INDEX balance_transactions_uncovered
  ON balance_transactions (account_id, environment, currency, included_in_settlement);
-- A maturing order's rows, and a released payout's reservation (its amount and fee).
CREATE INDEX balance_transactions_by_order ON balance_transactions (order_id);
CREATE INDEX balance_transactions_by_payout ON balance_transactions (payout_id);

-- Settlements (money to the merchant's bank), one row per SettlementStarted, then paid or failed.
CREATE TABLE settlements (
  id               text COLLATE "C" PRIMARY KEY,
  account_id       text COLLATE "C" NOT NULL,
  environment      text COLLATE "C" NOT NULL CHECK (environment IN ('production', 'sandbox')),
  currency         text COLLATE "C" NOT NULL,
  ledger_version   integer NOT NULL,
  amount           numeric(20, 2) NOT NULL CHECK (amount > 0),
  status           text COLLATE "C" NOT NULL CHECK (status IN ('in_transit', 'paid', 'failed')),
  failure_reason   text,
  trigger          text COLLATE "C" NOT NULL CHECK (trigger IN ('daily', 'manual')),
  retained_target  numeric(20, 2) NOT NULL,
  created_at       timestamptz(3) NOT NULL,
  paid_at          timestamptz(3),
  failed_at        timestamptz(3)
);

CREATE INDEX settlements_newest ON settlements (account_id, environment, created_at DESC, ledger_version DESC);
CREATE INDEX settlements_by_status ON settlements (account_id, environment, status, created_at DESC);
CREATE INDEX settlements_by_currency ON settlements (account_id, environment, currency, created_at DESC);

-- The balance transactions of every event already in the ledgers exist only once the events are
-- projected again: the balance rows start over and the read-model projector replays the log from
-- its start (payout_list and checkout_orders are unchanged by a replay: their rows carry the
-- version they reflect). Until it has caught up, a ledger's balance answers as being recalculated,
-- as after any rebuild.
DELETE FROM payout_balances;
DELETE FROM subscription_checkpoints WHERE subscription_id = 'read-models';
