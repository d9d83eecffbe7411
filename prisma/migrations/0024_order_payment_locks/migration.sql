-- One payment attempt in flight per checkout order, across every gateway process (docs/checkout.md,
-- "One attempt at a time"). A process holds an order's row while it asks the acquirer and records
-- the answer, then deletes it. A process that died holding one leaves it behind: `locked_until` is a
-- lease, after which another submission takes the row over and retries the same attempt under the
-- same acquirer idempotency key. Working state, not a record: nothing reads it afterwards.
CREATE TABLE order_payment_locks (
  order_id      bigint PRIMARY KEY,
  holder        text NOT NULL,
  locked_until  timestamptz NOT NULL
);
