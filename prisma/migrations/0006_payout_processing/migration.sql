-- Everything that moves a payout after the recipient confirms, and expiry (apps/worker), plus the
-- built-in payout rail simulator's own books. None of this is history: the event store holds what
-- happened to payouts, ledgers and floats; these tables hold work still to do and the simulated
-- rail's state. Every time that something is due by comes from the caller's clock (the sandbox
-- clock may run ahead of real time), never from now().

-- The worker's durable jobs, one row per payout, filled from the event feed by the worker's
-- subscription (in the transaction that moves its checkpoint, so no event is lost or applied twice).
CREATE TABLE payout_jobs (
  payout_id              text PRIMARY KEY CHECK (char_length(payout_id) BETWEEN 1 AND 191),
  account_id             text NOT NULL,
  environment            text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  -- The expiry timer: payout_expires_at while the payout awaits its recipient; NULL once disarmed
  -- (confirmed, cancelled, expired or failed). Fires when the environment's clock reaches it.
  expires_at             timestamptz,
  -- Set when the recipient confirms: the float queue is first come, first served per environment,
  -- by acceptance time and then by the order the worker saw the confirmations.
  accepted_at            timestamptz,
  confirmed_seq          bigint,
  -- The payout's amount is set aside in the environment's float (then it is sent through the rail).
  float_reserved         boolean NOT NULL DEFAULT false,
  -- PayoutAwaitingFloat was written, so the merchant sees safe_reason awaiting_float.
  awaiting_float_marked  boolean NOT NULL DEFAULT false,
  -- When to look at the payout again; NULL: as soon as possible.
  next_attempt_at        timestamptz,
  attempts               integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- Moved by the subscription when an event needs the worker's attention (a review decided, a
  -- failure): a step that read an older value does not push the next attempt back.
  wake_count             bigint NOT NULL DEFAULT 0,
  last_error             text,
  -- Nothing is left to do (paid, failed and tidied up at the rail, cancelled or expired).
  finished_at            timestamptz
);

CREATE SEQUENCE payout_jobs_confirmed_seq;

CREATE INDEX payout_jobs_expiry ON payout_jobs (environment, expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX payout_jobs_float_queue ON payout_jobs (environment, accepted_at, confirmed_seq)
  WHERE accepted_at IS NOT NULL AND finished_at IS NULL AND NOT float_reserved;
CREATE INDEX payout_jobs_sending ON payout_jobs (next_attempt_at)
  WHERE float_reserved AND finished_at IS NULL;

-- The payout rail simulator's transfers. The transfer id is the payout id, so a second send of the
-- same payout (a retry, a worker restarted mid-send) finds this row and never pays twice. The
-- recipient's details are not kept: only the method's name and the outcome they selected.
CREATE TABLE rail_simulator_transfers (
  transfer_id        text PRIMARY KEY CHECK (char_length(transfer_id) BETWEEN 1 AND 191),
  environment        text NOT NULL CHECK (environment IN ('production', 'sandbox')),
  amount             numeric(17, 2) NOT NULL CHECK (amount > 0),
  currency           text NOT NULL CHECK (currency = 'USD'),
  method             text NOT NULL CHECK (method IN ('bank_transfer', 'debit_card', 'wallet')),
  -- Where a pending transfer goes when settles_at is reached; a released hold becomes 'paid'.
  outcome            text NOT NULL CHECK (outcome IN ('paid', 'failed', 'review_required')),
  status             text NOT NULL CHECK (status IN ('pending', 'held', 'paid', 'failed')),
  -- Chosen when the transfer is created, shown only once it is paid: one receipt per transfer.
  receipt_reference  text NOT NULL UNIQUE CHECK (receipt_reference LIKE 'rcpt\_%'),
  failure_reason     text,
  created_at         timestamptz NOT NULL,
  settles_at         timestamptz NOT NULL,
  completed_at       timestamptz,
  CONSTRAINT rail_simulator_transfers_failed_has_reason CHECK ((status = 'failed') = (failure_reason IS NOT NULL))
);
