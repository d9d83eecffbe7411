import type { SqlQueryable } from '@payouts/database';
import { ChainHead, chainHead, insertLinks, StoredLink } from './chain-store';
import { chainLink, GENESIS_LINK } from './chain-link';

/**
 * The chain's own subscription only catches up (the projector links as it projects), so it looks
 * rarely: a look that finds the chain behind works through the backlog batch after batch without
 * waiting, and one that finds it current costs a read of the few events the projector has not
 * reached yet.
 */
export const CHAIN_CATCH_UP_POLL_MS = 5_000;
export const CHAIN_BATCH_SIZE = 1_000;

/** What the keeper needs of a feed event: the event store's RecordedEvent has all of it. */
export interface FeedEvent {
  globalPosition: string;
  transactionId: string;
  eventId: string;
  streamId: string;
  streamType: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: unknown;
  /** recorded_at with its microseconds: the feed's reads always give them (the event store port). */
  recordedAtMicros?: string;
}

/**
 * Links one feed batch (in feed order, as the subscription hands it over) onto the chain, in the
 * subscription's transaction, so the links and the chain's checkpoint commit together: a batch is
 * linked once or not at all.
 */
export async function chainBatch(tx: SqlQueryable, events: readonly FeedEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const links = linksOf(events, await chainHead(tx));
  await insertLinks(tx, links);
  return links.length;
}

/** The batch's links after `head`, in feed order. */
export function linksOf(events: readonly FeedEvent[], head: ChainHead): StoredLink[] {
  let previous = head.link ?? GENESIS_LINK;
  let seq = head.seq;
  const links: StoredLink[] = [];
  for (const event of events) {
    const at = event.recordedAtMicros;
    // A link over a time cut to the millisecond would not be the one verify recomputes from the
    // feed: an event that did not come from the feed has no place in the chain. Stop the line.
    if (at === undefined) {
      throw new Error(
        `chain keeper: the event at ${event.globalPosition} came without recorded_at's microseconds`,
      );
    }
    previous = chainLink(previous, {
      streamId: event.streamId,
      streamType: event.streamType,
      streamVersion: event.streamVersion,
      eventId: event.eventId,
      eventType: event.type,
      schemaVersion: event.schemaVersion,
      data: event.data,
      metadata: event.metadata,
      recordedAt: at,
    });
    seq += 1n;
    links.push({
      position: event.globalPosition,
      transactionId: event.transactionId,
      streamId: event.streamId,
      seq: String(seq),
      link: previous,
    });
  }
  return links;
}
