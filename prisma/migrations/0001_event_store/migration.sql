-- Event store: append-only events, one row per stream for optimistic concurrency, and durable
-- checkpoints for subscribers of the global feed.

CREATE TABLE event_streams (
  stream_id    text PRIMARY KEY,
  stream_type  text NOT NULL,
  version      integer NOT NULL CHECK (version > 0),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- transaction_id is the writer's transaction (pg_current_xact_id). Readers of the global feed
-- read only below the oldest transaction still in flight and order by (transaction_id,
-- global_position), so an event committed late by a concurrent transaction is never skipped.
CREATE TABLE events (
  global_position  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id   xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id         uuid NOT NULL UNIQUE,
  stream_id        text NOT NULL,
  stream_type      text NOT NULL,
  stream_version   integer NOT NULL CHECK (stream_version > 0),
  event_type       text NOT NULL,
  schema_version   integer NOT NULL CHECK (schema_version > 0),
  data             jsonb NOT NULL,
  metadata         jsonb NOT NULL DEFAULT '{}'::jsonb,
  recorded_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT events_stream_version_unique UNIQUE (stream_id, stream_version)
);

CREATE INDEX events_feed_order ON events (transaction_id, global_position);

-- Events are facts: a correction is a new event, never an edit. Refuse UPDATE and DELETE.
CREATE FUNCTION events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'events are append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION events_are_immutable();

CREATE TABLE subscription_checkpoints (
  subscription_id      text PRIMARY KEY,
  last_transaction_id  xid8 NOT NULL,
  last_position        bigint NOT NULL,
  updated_at           timestamptz NOT NULL DEFAULT now()
);
