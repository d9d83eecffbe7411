import { EncodedAppend } from '../encode-appends';

/**
 * One statement per stream: a data-modifying CTE moves the stream's version (the optimistic
 * concurrency check) and the INSERT writes the events only if it did. A statement is atomic on
 * its own, so a single-stream append is one round trip in autocommit mode.
 *
 * Parameters: $1 stream id, $2 stream type, $3 event count, $4..$8 the events (scalars for one
 * event, parallel text arrays for several: cast in SQL so both drivers serialise them alike), $9
 * the expected version. The statement returns only what the database decided; the adapter has
 * the rest.
 */
const STREAM_STEP = {
  // Must not exist: a concurrent creator makes this insert wait, then do nothing.
  no_stream: `INSERT INTO event_streams (stream_id, stream_type, version) VALUES ($1, $2, $3::integer)
      ON CONFLICT DO NOTHING RETURNING version`,
  // Must be at the expected version: a concurrent writer makes this wait, then match no row.
  version: `UPDATE event_streams SET version = version + $3::integer, updated_at = now()
      WHERE stream_id = $1 AND version = $9::integer RETURNING version`,
  any: `INSERT INTO event_streams (stream_id, stream_type, version) VALUES ($1, $2, $3::integer)
      ON CONFLICT (stream_id) DO UPDATE SET version = event_streams.version + excluded.version, updated_at = now()
      RETURNING version`,
} as const;

type CheckKind = keyof typeof STREAM_STEP;

const INSERT_EVENTS =
  'INSERT INTO events (event_id, stream_id, stream_type, stream_version, event_type, schema_version, data, metadata)';
const RETURNING = `RETURNING global_position::text AS global_position, transaction_id::text AS transaction_id,
    stream_version, recorded_at`;

function oneEventSql(kind: CheckKind): string {
  return `WITH stream AS (${STREAM_STEP[kind]})
    ${INSERT_EVENTS}
    SELECT $4::uuid, $1, $2, stream.version, $5::text, $6::integer, $7::jsonb, $8::jsonb FROM stream
    ${RETURNING}`;
}

function manyEventsSql(kind: CheckKind): string {
  return `WITH stream AS (${STREAM_STEP[kind]})
    ${INSERT_EVENTS}
    SELECT e.event_id::uuid, $1, $2, stream.version - $3::integer + e.ord::integer, e.event_type, e.schema_version,
           e.data::jsonb, e.metadata::jsonb
    FROM stream,
         unnest($4::text[], $5::text[], $6::integer[], $7::text[], $8::text[])
           WITH ORDINALITY AS e(event_id, event_type, schema_version, data, metadata, ord)
    ORDER BY e.ord
    ${RETURNING}`;
}

const KINDS: CheckKind[] = ['no_stream', 'version', 'any'];
const ONE_EVENT_SQL = Object.fromEntries(KINDS.map((kind) => [kind, oneEventSql(kind)])) as Record<
  CheckKind,
  string
>;
const MANY_EVENTS_SQL = Object.fromEntries(KINDS.map((kind) => [kind, manyEventsSql(kind)])) as Record<
  CheckKind,
  string
>;

/** What the database assigned to each event. */
export interface AppendedRow {
  global_position: string;
  transaction_id: string;
  stream_version: number;
  recorded_at: Date | string;
}

export function appendStatement(append: EncodedAppend): { sql: string; params: unknown[] } {
  const kind = append.check.kind;
  const one = append.eventIds.length === 1;
  const params: unknown[] = [
    append.streamId,
    append.streamType,
    append.eventIds.length,
    ...(one
      ? [append.eventIds[0], append.types[0], append.schemaVersions[0], append.data[0], append.metadata[0]]
      : [append.eventIds, append.types, append.schemaVersions, append.data, append.metadata]),
  ];
  if (append.check.kind === 'version') params.push(append.check.version);
  return { sql: one ? ONE_EVENT_SQL[kind] : MANY_EVENTS_SQL[kind], params };
}

export const STREAM_VERSION_SQL = 'SELECT version FROM event_streams WHERE stream_id = $1';

/** Unique constraints of the event store tables (migration 0001). */
export const CONSTRAINTS = {
  eventId: 'events_event_id_key',
  streamVersion: 'events_stream_version_unique',
  streamsPrimaryKey: 'event_streams_pkey',
} as const;
