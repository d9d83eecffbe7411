-- Tamper evidence for the event log (docs/design.md#chain, docs/audit.md): a hash chain over the events
-- in feed order. The chain keeper (a feed subscriber, `event-chain` in subscription_checkpoints)
-- adds one link per event after it commits, so the create path pays nothing. `seq` numbers the
-- links 1, 2, ... in feed order, so a removed link row shows as a hole even when its event was
-- removed with it. No foreign key to events on purpose: a deleted event must leave its link behind
-- as evidence. Two indexes only (the keeper writes a row per event): seq, and the feed order,
-- which also finds an event's link (an event's position alone is unique too).
CREATE TABLE event_chain (
  seq              bigint PRIMARY KEY CHECK (seq > 0),
  transaction_id   xid8 NOT NULL,
  global_position  bigint NOT NULL,
  -- Kept so that a deleted event's stream can still be named.
  stream_id        text NOT NULL,
  -- sha256, lowercase hex; verify compares it with the recomputed one.
  link             text NOT NULL CHECK (octet_length(link) = 64),
  chained_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT event_chain_feed_order UNIQUE (transaction_id, global_position)
);

-- Links are facts too: the keeper only inserts. Refuse UPDATE and DELETE as for events.
CREATE TRIGGER event_chain_no_update BEFORE UPDATE OR DELETE ON event_chain
  FOR EACH ROW EXECUTE FUNCTION events_are_immutable();
