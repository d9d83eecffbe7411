import type { SqlQueryable } from '@payouts/database';
import { Aggregate, foldStored } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import type { RelayedEvent } from '../transport/event-transport';

/**
 * Each relayed event's aggregate as it was right after that event: its own stream read from the
 * event store up to the event's version and folded with the domain's evolve, so a webhook body is
 * the aggregate's own, whatever happened to the read models. Each stored event is read through the
 * domain's upcaster, as everywhere an aggregate is loaded. One read per stream of the batch.
 */
export async function foldRelayedStreams<Event extends { type: string }, State>(
  store: EventStore,
  tx: SqlQueryable,
  relayed: readonly RelayedEvent[],
  aggregate: Aggregate<Event, State>,
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
    const upTo = (streams.get(event.streamId) ?? []).filter(
      (stored) => stored.streamVersion <= event.streamVersion,
    );
    return { event, state: foldStored(aggregate, upTo) };
  });
}
