import { EncodedAppend } from '../encode-appends';

/** What the database assigned to each event. */
export interface AppendedRow {
  global_position: string;
  transaction_id: string;
  stream_version: number;
  recorded_at: Date | string;
}

export const STREAM_VERSION_SQL = 'SELECT version FROM event_streams WHERE stream_id = $1';

/** Unique constraints of the event store tables (migration 0001). */
export const CONSTRAINTS = {
  eventId: 'events_event_id_key',
  streamVersion: 'events_stream_version_unique',
  streamsPrimaryKey: 'event_streams_pkey',
} as const;

/**
 * An append as one call of `append_to_streams` (migrations 0011, 0015): the streams' steps and events in
 * one statement, atomic on its own, so one message cycle on the server whatever the count.
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
      jsonArrayOf(data),
      jsonArrayOf(metadata),
    ],
  };
}

/**
 * The events' JSON texts as one JSON array: no escaping, where a text[] literal escapes every
 * quote of every event (in the gateway's profile, that escaping was 3% of its CPU per create).
 */
function jsonArrayOf(jsonTexts: readonly string[]): string {
  return `[${jsonTexts.join(',')}]`;
}

/** A jsonb array as the function's jsonb[], in the array's order. */
const elementsOf = (param: string) =>
  `ARRAY(SELECT e.value FROM jsonb_array_elements(${param}::jsonb) WITH ORDINALITY AS e(value, n) ORDER BY e.n)`;

const APPEND_TO_STREAMS_SQL = `SELECT appended_stream, appended_version, appended_position, appended_transaction, appended_at
  FROM append_to_streams($1::text[], $2::text[], $3::integer[], $4::integer[], $5::integer[], $6::integer[],
    $7::uuid[], $8::text[], $9::integer[], ${elementsOf('$10')}, ${elementsOf('$11')})`;

/** One written event, as `append_to_streams` returns it. */
export interface StreamsAppendedRow {
  appended_stream: string;
  appended_version: number;
  appended_position: string;
  appended_transaction: string;
  appended_at: Date | string;
}

/** The SQLSTATE `append_to_streams` raises when a stream's step matched nothing (its detail: the stream id). */
export const VERSION_CONFLICT_STATE = 'EV409';

/** The function's encoding of an expected version: 0 must not exist, -1 any, else the version. */
function expectedCode(check: EncodedAppend['check']): number {
  if (check.kind === 'no_stream') return 0;
  if (check.kind === 'any') return -1;
  return check.version;
}
