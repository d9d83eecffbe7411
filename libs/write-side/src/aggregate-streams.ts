import { Aggregate, foldStored } from '@payouts/domain';
import {
  EventStore,
  ExpectedVersion,
  NewEvent,
  StreamAppend,
  StreamVersionConflictError,
} from '@payouts/event-store';

export interface LoadedAggregate<State> {
  state: State;
  version: number;
}

/**
 * Folds a stream into its aggregate's state, each stored event read through the aggregate's
 * upcaster; version 0 means the stream does not exist yet.
 */
export async function loadAggregate<Event extends { type: string }, State>(
  store: EventStore,
  streamId: string,
  aggregate: Aggregate<Event, State>,
): Promise<LoadedAggregate<State>> {
  const { version, events } = await store.readStream(streamId);
  return { state: foldStored(aggregate, events), version };
}

export function expectedVersionOf(version: number): ExpectedVersion {
  return version === 0 ? 'no_stream' : version;
}

/** Domain events become store events with their schema version. */
export function toNewEvents<Event extends { type: string; data: unknown }>(
  events: readonly Event[],
  schemaVersions: Record<string, number>,
  metadata: Record<string, unknown> = {},
): NewEvent[] {
  return events.map((event) => {
    const schemaVersion = schemaVersions[event.type];
    if (schemaVersion === undefined) throw new Error(`no schema version for event type ${event.type}`);
    return { type: event.type, schemaVersion, data: event.data, metadata };
  });
}

/**
 * A payout read at `readVersion` decided to end, but the ledger holds no open reservation for it.
 * A reservation and its payout always move in one append, so another writer (a cancel in another
 * process, the worker's expiry) has ended the payout since it was read: a version conflict on the
 * payout, retried on fresh state, which then finds the payout final. A payout that has not moved
 * means the two streams disagree, which is never papered over.
 */
export async function reservationClosedUnderUs(
  store: EventStore,
  payoutStreamId: string,
  readVersion: number,
): Promise<never> {
  const { version } = await store.readStream(payoutStreamId, { fromVersion: readVersion + 1 });
  if (version > readVersion) throw new StreamVersionConflictError(payoutStreamId, readVersion, version);
  throw new Error(`${payoutStreamId} is open at version ${version} but its ledger reservation is closed`);
}

/**
 * A stream's part of a plan: its new events, appended on the version it was read at (0: the
 * stream must not exist yet).
 */
export function appendTo<Event extends { type: string; data: unknown }>(
  streamId: string,
  streamType: string,
  readVersion: number,
  events: readonly Event[],
  schemaVersions: Record<string, number>,
): StreamAppend {
  return {
    streamId,
    streamType,
    expectedVersion: expectedVersionOf(readVersion),
    events: toNewEvents(events, schemaVersions),
  };
}
