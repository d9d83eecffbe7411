import {
  AllStreamResolvedEvent,
  CancelledError,
  DeadlineExceededError,
  JSONEventData,
  NotLeaderError,
  Position,
  ResolvedEvent,
  TimeoutError,
  UnavailableError,
} from '@eventstore/db-client';
import type { FeedCheckpoint, RecordedEvent } from '../event-store.port';
import { asStoredJson } from '../postgres/event-row';
import type { DecidedEvent } from './pending-appends';

/**
 * How the port's events look in EventStoreDB (docs/eventstoredb.md#events): the stream name is the
 * stream id, the event's type and id are its own, the data is the event's JSON, and the metadata
 * is an envelope with what EventStoreDB has no field for.
 */
interface Envelope {
  streamType: string;
  schemaVersion: number;
  metadata: Record<string, unknown>;
}

function isEnvelope(value: unknown): value is Envelope {
  const envelope = value as Partial<Envelope> | null;
  return (
    typeof envelope === 'object' &&
    envelope !== null &&
    typeof envelope.streamType === 'string' &&
    typeof envelope.schemaVersion === 'number' &&
    typeof envelope.metadata === 'object'
  );
}

export function toEventData(streamType: string, event: DecidedEvent): JSONEventData {
  return {
    id: event.eventId,
    contentType: 'application/json',
    type: event.type,
    data: JSON.parse(event.data) as JSONEventData['data'],
    metadata: {
      streamType,
      schemaVersion: event.schemaVersion,
      metadata: JSON.parse(event.metadata) as Record<string, unknown>,
    },
  };
}

/** The place of an event in $all as the port's checkpoint: commit position, then prepare position. */
export function checkpointOf(position: Position): FeedCheckpoint {
  return { transactionId: position.commit.toString(), position: position.prepare.toString() };
}

export function positionOf(checkpoint: FeedCheckpoint): Position {
  return { commit: BigInt(checkpoint.transactionId), prepare: BigInt(checkpoint.position) };
}

/**
 * A recorded EventStoreDB event as the port's RecordedEvent; undefined for what is not one of the
 * port's events (EventStoreDB's own `$` streams and types, anything written without the envelope).
 * The data comes back in the same key order the PostgreSQL store gives (asStoredJson), so both
 * stores hand readers equal values.
 */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event || event.type.startsWith('$') || event.streamId.startsWith('$')) return undefined;
  if (!event.isJson || !isEnvelope(event.metadata)) return undefined;
  const position = event.position;
  if (!position) throw new Error(`EventStoreDB sent event ${event.id} without its position in $all`);
  const checkpoint = checkpointOf(position);
  const iso = event.created.toISOString();
  return {
    eventId: event.id,
    streamId: event.streamId,
    streamType: event.metadata.streamType,
    streamVersion: Number(event.revision) + 1,
    type: event.type,
    schemaVersion: event.metadata.schemaVersion,
    data: asStoredJson(JSON.stringify(event.data)),
    metadata: asStoredJson(JSON.stringify(event.metadata.metadata)) as Record<string, unknown>,
    // The prepare position: unique per event, where the commit position is shared by the events
    // of one transaction on a real server.
    globalPosition: checkpoint.position,
    transactionId: checkpoint.transactionId,
    recordedAt: event.created,
    // The client gives the time to the millisecond: the microseconds are always 000.
    recordedAtMicros: `${iso.slice(0, -1)}000Z`,
    checkpoint,
  };
}

/** Whether a client failure means EventStoreDB could not be reached (as opposed to a refusal). */
export function isUnreachable(error: unknown): boolean {
  if (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    error instanceof CancelledError ||
    error instanceof NotLeaderError
  ) {
    return true;
  }
  // gRPC's UNAVAILABLE (14) and DEADLINE_EXCEEDED (4) when the client did not wrap them.
  const code = (error as { code?: unknown } | null)?.code;
  return code === 14 || code === 4;
}
