-- Checkout orders (docs/design.md#checkout). Order ids are integers unique across the service (docs/design.md#orders-and-their-states),
-- taken from one sequence before the order's stream is written; a gap (an id taken by a create
-- that was then refused) is harmless.
CREATE SEQUENCE checkout_order_ids AS bigint START 1000001;

-- The orders' read model, kept current inline by the append that writes the order's events (the
-- list, history and status queries read their own writes) and rebuilt by the projector from the
-- log like the payout read models. `version` is the order stream's version it reflects.
CREATE TABLE checkout_orders (
  order_id         bigint PRIMARY KEY,
  account_id       text NOT NULL,
  environment      text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  method           text NOT NULL,
  amount           numeric(20, 2) NOT NULL CHECK (amount > 0),
  currency         text NOT NULL,
  customer         text NOT NULL,
  product          text NOT NULL,
  redirect_url     text,
  hook_url         text,
  credential_id    text NOT NULL,
  -- SHA-256 of the hosted page's token: the page is found by it, the token itself is never kept.
  page_token_hash  text NOT NULL UNIQUE,
  status           text NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'EXPIRED')),
  attempts         integer NOT NULL DEFAULT 0,
  last_decline     text,
  -- Brand and last four digits of a card, or the masked wallet account: never a card number.
  instrument       jsonb,
  created_at       timestamptz NOT NULL,
  paid_at          timestamptz,
  expires_at       timestamptz NOT NULL,
  version          integer NOT NULL
);

-- Get Payments List and History: one account and environment, newest first.
CREATE INDEX checkout_orders_newest ON checkout_orders (account_id, environment, created_at DESC, order_id DESC);
-- The worker's expiry sweep: pending orders by deadline.
CREATE INDEX checkout_orders_pending_by_deadline ON checkout_orders (expires_at) WHERE status = 'PENDING';
