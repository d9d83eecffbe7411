-- Every append is one call: the streams' version steps and their events in one statement. The
-- event store issued one statement per stream: in pipeline mode they cost no round trips, but each
-- still cost the server a message cycle and a socket write, which on a small machine were a large
-- part of a Create Payout (three streams, and a group commit of many creates).
--   1. each stream's version step, in the order given (the event store sorts by stream id, so
--      concurrent appends lock stream rows in one order and cannot deadlock): a new stream must
--      not exist, a versioned one must be at its expected version, 'any' adds to whatever is there;
--   2. the first step that matches nothing raises SQLSTATE EV409 with the stream id as its detail:
--      the statement fails, so nothing of the append is written, in autocommit or in a transaction;
--   3. only when every step matched, every event is written, in the order given, each stream's
--      events numbered after the version its step left.
-- expected: 0 must not exist, > 0 must be at that version, -1 any.
CREATE FUNCTION append_to_streams(
  p_stream_ids text[],
  p_stream_types text[],
  p_expected integer[],
  p_counts integer[],
  p_event_streams integer[],
  p_event_ordinals integer[],
  p_event_ids uuid[],
  p_event_types text[],
  p_schema_versions integer[],
  p_data jsonb[],
  p_metadata jsonb[]
) RETURNS TABLE (
  appended_stream text,
  appended_version integer,
  appended_position text,
  appended_transaction text,
  appended_at timestamptz
) LANGUAGE plpgsql AS $$
DECLARE
  versions integer[] := array_fill(0, ARRAY[cardinality(p_stream_ids)]);
  stepped integer;
BEGIN
  FOR i IN 1 .. cardinality(p_stream_ids) LOOP
    stepped := NULL;
    IF p_expected[i] = 0 THEN
      INSERT INTO event_streams (stream_id, stream_type, version)
        VALUES (p_stream_ids[i], p_stream_types[i], p_counts[i])
        ON CONFLICT DO NOTHING
        RETURNING version INTO stepped;
    ELSIF p_expected[i] > 0 THEN
      UPDATE event_streams SET version = version + p_counts[i], updated_at = now()
        WHERE stream_id = p_stream_ids[i] AND version = p_expected[i]
        RETURNING version INTO stepped;
    ELSE
      INSERT INTO event_streams AS s (stream_id, stream_type, version)
        VALUES (p_stream_ids[i], p_stream_types[i], p_counts[i])
        ON CONFLICT (stream_id) DO UPDATE SET version = s.version + excluded.version, updated_at = now()
        RETURNING version INTO stepped;
    END IF;
    IF stepped IS NULL THEN
      RAISE EXCEPTION 'version conflict on stream %', p_stream_ids[i]
        USING ERRCODE = 'EV409', DETAIL = p_stream_ids[i];
    END IF;
    versions[i] := stepped;
  END LOOP;

  RETURN QUERY
    WITH written AS (
      INSERT INTO events (event_id, stream_id, stream_type, stream_version, event_type, schema_version, data, metadata)
      SELECT e.event_id, p_stream_ids[e.s], p_stream_types[e.s], versions[e.s] - p_counts[e.s] + e.k,
             e.event_type, e.schema_version, e.data, e.metadata
        FROM unnest(p_event_streams, p_event_ordinals, p_event_ids, p_event_types, p_schema_versions, p_data, p_metadata)
             WITH ORDINALITY AS e(s, k, event_id, event_type, schema_version, data, metadata, n)
       ORDER BY e.n
      RETURNING events.stream_id, events.stream_version, events.global_position, events.transaction_id,
                events.recorded_at
    )
    SELECT w.stream_id, w.stream_version, w.global_position::text, w.transaction_id::text, w.recorded_at
      FROM written w;
END;
$$;
