import type { SqlQueryable } from '@payouts/database';
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
 * the aggregate's own, whatever happened to the read models. One read for all the streams.
 */
export async function foldRelayedStreams<Event extends { type: string }, State>(
  tx: SqlQueryable,
  relayed: readonly RelayedEvent[],
  folding: StreamFolding<Event, State>,
): Promise<{ event: RelayedEvent; state: State }[]> {
  if (relayed.length === 0) return [];
  const streamIds = [...new Set(relayed.map((event) => event.streamId))];
  const { rows } = await tx.query<{
    stream_id: string;
    stream_version: number;
    event_type: string;
    schema_version: number;
    data: unknown;
  }>(
    `SELECT stream_id, stream_version, event_type, schema_version, data FROM events
      WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, stream_version`,
    [streamIds],
  );
  return relayed.map((event) => {
    let state = folding.initial();
    for (const row of rows) {
      if (row.stream_id !== event.streamId || row.stream_version > event.streamVersion) continue;
      state = folding.evolve(state, known(folding, row.event_type, row.schema_version, row.data));
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
