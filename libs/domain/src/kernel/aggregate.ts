/** An event as the event store keeps it: its type, the schema version it was written in, its data. */
export interface StoredEvent {
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
}

/**
 * Everything needed to load an aggregate from its stream, in one place per aggregate (its
 * `<aggregate>.evolve.ts`): the write side, the read models, the webhooks and the audit all load
 * it this way, so an old event is read through the same upcaster everywhere.
 */
export interface Aggregate<Event extends { type: string }, State> {
  readonly streamType: string;
  readonly initial: () => State;
  readonly evolve: (state: State, event: Event) => State;
  /**
   * A stored event of any schema version this build knows, as the current shape. Old events are
   * never rewritten; an unknown type or a newer version is refused rather than guessed at.
   */
  readonly upcast: (stored: StoredEvent) => Event;
}

/**
 * The upcaster of an aggregate whose events are all still at the version they were first written
 * in: it reads exactly those versions and refuses anything else.
 */
export function currentVersionsOnly<Event extends { type: string }>(
  streamType: string,
  versions: Readonly<Record<Event['type'], number>>,
): (stored: StoredEvent) => Event {
  return (stored) => {
    const current = (versions as Readonly<Record<string, number>>)[stored.type];
    if (current === undefined) throw new Error(`unknown ${streamType} event type ${stored.type}`);
    if (Number(stored.schemaVersion) !== current) {
      throw new Error(
        `${streamType} event ${stored.type} has schema version ${stored.schemaVersion}; this build reads ${current}`,
      );
    }
    return { type: stored.type, data: stored.data } as unknown as Event;
  };
}

/** Folds stored events, each upcast, into the aggregate's state (from `from`, or its start). */
export function foldStored<Event extends { type: string }, State>(
  aggregate: Aggregate<Event, State>,
  stored: Iterable<StoredEvent>,
  from: State = aggregate.initial(),
): State {
  let state = from;
  for (const event of stored) state = aggregate.evolve(state, aggregate.upcast(event));
  return state;
}
