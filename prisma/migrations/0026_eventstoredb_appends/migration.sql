-- The EventStoreDB adapter's working state (docs/eventstoredb.md, "Appends"). Unused when events
-- live in this database.
--
-- An append to EventStoreDB is decided in a PostgreSQL transaction that holds every stream's lock
-- and records each stream's events here, with the read models and rows of the same command; the
-- events are written to EventStoreDB after that transaction commits, stream by stream (the ledger
-- first), and their row is deleted. A process that dies between the writes leaves rows here, and
-- the next writer of the stream, or the adapter's recovery, writes them first. Working state, not a
-- record: an empty table is the normal state.
CREATE TABLE eventstoredb_pending_appends (
  id                bigserial PRIMARY KEY,
  stream_id         text NOT NULL,
  stream_type       text NOT NULL,
  -- The stream's version before these events (0: a new stream).
  expected_version  integer NOT NULL CHECK (expected_version >= 0),
  -- The events as the adapter writes them: [{eventId, type, schemaVersion, data, metadata}].
  events            jsonb NOT NULL,
  decided_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX eventstoredb_pending_appends_stream ON eventstoredb_pending_appends (stream_id, id);

-- The streams of each type, for listing a category (EventStore.streamIds): EventStoreDB has no
-- such list without its system projections. Written in the deciding transaction.
CREATE TABLE eventstoredb_streams (
  stream_id    text COLLATE "C" PRIMARY KEY,
  stream_type  text NOT NULL
);
CREATE INDEX eventstoredb_streams_type ON eventstoredb_streams (stream_type, stream_id);

-- Every event id written through the adapter: event ids are unique across the store (the
-- EventStore port's rule, which webhook receivers rely on to de-duplicate), and EventStoreDB only
-- checks them within a stream. Written in the deciding transaction.
CREATE TABLE eventstoredb_event_ids (
  event_id  uuid PRIMARY KEY
);
