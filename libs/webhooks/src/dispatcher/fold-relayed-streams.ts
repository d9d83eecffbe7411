import type { SqlQueryable } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import type { RelayedEvent } from '../transport/event-transport';

/** How one aggregate is folded: its evolve, its start, and the schema versions this build reads. */
export interface StreamFolding<Event extends { type: string }, State> {
  readonly what: string;
  readonly evolve: (state: State, event: Event) => State;
  readonly initial: () => State;
  readonly schemaVersions: Readonly<Record<string, number>>;
}

/**
 * Each relayed event's aggregate as it was right after that event: its own stream read from the
 * event store up to the event's version and folded with the domain's evolve, so a webhook body is
 * the aggregate's own, whatever happened to the read models. One read per stream of the batch.
 */
export async function foldRelayedStreams<Event extends { type: string }, State>(
  store: EventStore,
  tx: SqlQueryable,
  relayed: readonly RelayedEvent[],
  folding: StreamFolding<Event, State>,
): Promise<{ event: RelayedEvent; state: State }[]> {
  const upTo = new Map<string, number>();
  for (const event of relayed) {
    upTo.set(event.streamId, Math.max(upTo.get(event.streamId) ?? 0, event.streamVersion));
  }
  // One read per stream, inside the consumer's transaction (on the embedded database a read on
  // another connection would wait for it), issued together so they share its round trips.
  const streams = new Map(
    await Promise.all(
      [...upTo].map(
        async ([streamId, toVersion]) =>
          [streamId, (await store.readStream(streamId, { toVersion, within: tx })).events] as const,
      ),
    ),
  );
  return relayed.map((event) => {
    let state = folding.initial();
    for (const stored of streams.get(event.streamId) ?? []) {
      if (stored.streamVersion > event.streamVersion) break;
      state = folding.evolve(state, known(folding, stored.type, stored.schemaVersion, stored.data));
    }
    return { event, state };
  });
}

/** A build never guesses at an event version it does not know: it stops, visibly, until upgraded. */
function known<Event extends { type: string }, State>(
  folding: StreamFolding<Event, State>,
  type: string,
  schemaVersion: number,
  data: unknown,
): Event {
  const version = folding.schemaVersions[type];
  if (version === undefined) throw new Error(`unknown ${folding.what} event type ${type}`);
  if (Number(schemaVersion) !== version) {
    throw new Error(
      `${folding.what} event ${type} has schema version ${schemaVersion}; this build reads ${version}`,
    );
  }
  return { type, data } as unknown as Event;
}
