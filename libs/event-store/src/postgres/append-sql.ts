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

/**
 * An append of several streams as one call of `append_to_streams` (migration 0011): the streams'
 * steps and events in one statement, so one message cycle on the server whatever the count.
 * Streams in the order given (sorted by the encoder); events as parallel arrays, each naming its
 * stream (1-based) and its place in that stream's append.
 */
export function appendStreamsStatement(appends: readonly EncodedAppend[]): {
  sql: string;
  params: unknown[];
} {
  const eventStreams: number[] = [];
  const ordinals: number[] = [];
  const eventIds: string[] = [];
  const types: string[] = [];
  const schemaVersions: number[] = [];
  const data: string[] = [];
  const metadata: string[] = [];
  appends.forEach((append, index) => {
    append.eventIds.forEach((eventId, position) => {
      eventStreams.push(index + 1);
      ordinals.push(position + 1);
      eventIds.push(eventId);
    });
    types.push(...append.types);
    schemaVersions.push(...append.schemaVersions);
    data.push(...append.data);
    metadata.push(...append.metadata);
  });
  return {
    sql: APPEND_TO_STREAMS_SQL,
    params: [
      appends.map((append) => append.streamId),
      appends.map((append) => append.streamType),
      appends.map((append) => expectedCode(append.check)),
      appends.map((append) => append.eventIds.length),
      eventStreams,
      ordinals,
      eventIds,
      types,
      schemaVersions,
      data,
      metadata,
    ],
  };
}

const APPEND_TO_STREAMS_SQL = `SELECT appended_stream, appended_version, appended_position, appended_transaction, appended_at
  FROM append_to_streams($1::text[], $2::text[], $3::integer[], $4::integer[], $5::integer[], $6::integer[],
    $7::uuid[], $8::text[], $9::integer[], $10::jsonb[], $11::jsonb[])`;

/** What one stream's row of `append_to_streams` says: a written event, or (no version) a conflict. */
export interface StreamsAppendedRow {
  appended_stream: string;
  appended_version: number | null;
  appended_position: string | null;
  appended_transaction: string | null;
  appended_at: Date | string | null;
}

/** The function's encoding of an expected version: 0 must not exist, -1 any, else the version. */
function expectedCode(check: EncodedAppend['check']): number {
  if (check.kind === 'no_stream') return 0;
  if (check.kind === 'any') return -1;
  return check.version;
}
