import type { SqlQueryable } from '@payouts/database';
import type { RecordedEvent } from '@payouts/event-store';

/**
 * How committed events travel from the relay to their consumers (the webhook dispatcher): Kafka
 * when KAFKA_BROKERS is set, else the in-process transport of the embedded start. Both sit behind
 * this port, so the relay and the dispatcher run the same code either way.
 */

/**
 * One event as it leaves the ledger: the store's event with its identity and place, in a versioned
 * envelope. `eventId` is the store's own (a UUID), so a consumer that sees an event twice (the
 * relay publishes at least once) can tell.
 */
export interface RelayedEvent {
  envelopeVersion: 1;
  eventId: string;
  streamId: string;
  streamType: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: Record<string, unknown>;
  recordedAt: string;
  globalPosition: string;
  transactionId: string;
}

export function toRelayedEvent(event: RecordedEvent): RelayedEvent {
  return {
    envelopeVersion: 1,
    eventId: event.eventId,
    streamId: event.streamId,
    streamType: event.streamType,
    streamVersion: event.streamVersion,
    type: event.type,
    schemaVersion: event.schemaVersion,
    data: event.data,
    metadata: event.metadata,
    recordedAt: event.recordedAt.toISOString(),
    globalPosition: event.globalPosition,
    transactionId: event.transactionId,
  };
}

/** Reads an envelope back; null for anything that is not one (it is skipped, never retried forever). */
export function parseRelayedEvent(value: string): RelayedEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const event = parsed as Partial<RelayedEvent>;
  const ok =
    event.envelopeVersion === 1 &&
    typeof event.eventId === 'string' &&
    typeof event.streamId === 'string' &&
    typeof event.streamType === 'string' &&
    Number.isSafeInteger(event.streamVersion) &&
    typeof event.type === 'string' &&
    Number.isSafeInteger(event.schemaVersion);
  return ok ? (event as RelayedEvent) : null;
}

/**
 * Handles a batch inside a database transaction: what it writes through `tx` commits together
 * with the consumer's progress (in-process: the relay's checkpoint) or before it (Kafka: the
 * offsets are committed after the transaction), so a batch is never half-applied and a batch seen
 * again must change nothing (handlers are idempotent).
 */
export type RelayedEventHandler = (events: RelayedEvent[], tx: SqlQueryable) => Promise<void>;

export interface ConsumeOptions {
  /** The consumer group: processes sharing it share the work. */
  groupId: string;
  /** Only events of these stream types reach the handler (one Kafka topic per stream type). */
  streamTypes: readonly string[];
  /**
   * Only events of these types reach the handler (all when unset). On Kafka the type is read from
   * the message header, so the others are not even parsed.
   */
  eventTypes?: readonly string[];
  handler: RelayedEventHandler;
  /**
   * Called once a batch's transaction has committed (Kafka), or right after the handler (in-process:
   * the relay commits a moment later, and on the embedded database anything that reads the rows
   * waits for that commit). For work that must see the batch's writes, like waking the sender.
   */
  onHandled?: () => void;
}

export interface EventTransport {
  readonly kind: 'kafka' | 'in-process';
  /**
   * Resolves once the events are handed over for good: written to every in-sync replica (Kafka),
   * or handled by the consumers inside `tx` (in-process). The relay advances its checkpoint only
   * after that, in the same transaction as `tx`.
   */
  publish(events: readonly RelayedEvent[], tx: SqlQueryable): Promise<void>;
  /** Starts handing events to the handler; resolves once the consumer is registered. */
  consume(options: ConsumeOptions): Promise<void>;
  close(): Promise<void>;
}
