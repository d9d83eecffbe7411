import { EventStore, ExpectedVersion, NewEvent, RecordedEvent } from '@payouts/event-store';

export interface LoadedAggregate<State> {
  state: State;
  version: number;
}

/** Folds a stream into its decider's state; version 0 means the stream does not exist yet. */
export async function loadAggregate<Event, State>(
  store: EventStore,
  streamId: string,
  evolve: (state: State, event: Event) => State,
  initial: State,
): Promise<LoadedAggregate<State>> {
  const { version, events } = await store.readStream(streamId);
  const state = events.reduce(
    (acc: State, recorded: RecordedEvent) => evolve(acc, toDomainEvent<Event>(recorded)),
    initial,
  );
  return { state, version };
}

export function toDomainEvent<Event>(recorded: RecordedEvent): Event {
  return { type: recorded.type, data: recorded.data } as Event;
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
