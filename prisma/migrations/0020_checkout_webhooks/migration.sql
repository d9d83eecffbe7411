-- Checkout webhooks (docs/design.md#checkout-webhook) on the payout webhooks' tables: one `order.paid`
-- event per paid order that has a hook_url, delivered and retried on the same durable schedule
-- rows (webhook_deliveries) and attempt log (webhook_attempts). Unlike a payout event, whose
-- target is the account's endpoint as it is at each attempt, an order's target is fixed when the
-- order is created (its hook_url) and it is signed with the API secret of the checkout credential
-- that created it, so both are kept on the event row. The credential's secret itself stays in
-- `credentials` (encrypted) and is read at send time.

ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_event_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_event_type_check
  CHECK (event_type IN ('payout.updated', 'payout.test', 'order.paid'));

ALTER TABLE webhook_events
  ADD COLUMN order_id bigint CHECK (order_id > 0),
  ADD COLUMN target_url text CHECK (char_length(target_url) BETWEEN 1 AND 2048),
  ADD COLUMN credential_id text;

-- An order.paid event has all three and reports one OrderPaid event of the store; no other event
-- has any of them.
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_order_shape CHECK (
  (event_type = 'order.paid') = (order_id IS NOT NULL)
  AND (event_type = 'order.paid') = (target_url IS NOT NULL)
  AND (event_type = 'order.paid') = (credential_id IS NOT NULL)
  AND (event_type <> 'order.paid' OR source_event_id IS NOT NULL));

-- A paid order has at most one webhook event, however often its OrderPaid is relayed.
CREATE UNIQUE INDEX webhook_events_one_per_paid_order ON webhook_events (order_id)
  WHERE event_type = 'order.paid';
