-- Tamper evidence for the event log (ARCHITECTURE 8): a hash chain over the events in feed order.
-- The chain keeper (a feed subscriber, `event-chain` in subscription_checkpoints) adds one link per
-- event after it commits, so the create path pays nothing. `seq` numbers the links 1, 2, ... in
-- feed order, so a removed link row shows as a hole even when its event was removed with it.
-- No foreign key to events on purpose: a deleted event must leave its link behind as evidence.
CREATE TABLE event_chain (
  global_position  bigint PRIMARY KEY,
  transaction_id   xid8 NOT NULL,
  -- Kept so that a deleted event's stream can still be named.
  stream_id        text NOT NULL,
  seq              bigint NOT NULL CHECK (seq > 0),
  link             text NOT NULL CHECK (link ~ '^[0-9a-f]{64}$'),
  chained_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT event_chain_seq_unique UNIQUE (seq)
);

-- Links are facts too: the keeper only inserts. Refuse UPDATE and DELETE as for events.
CREATE TRIGGER event_chain_no_update BEFORE UPDATE OR DELETE ON event_chain
  FOR EACH ROW EXECUTE FUNCTION events_are_immutable();

-- verify walks the links in feed order beside the events.
CREATE INDEX event_chain_feed_order ON event_chain (transaction_id, global_position);
