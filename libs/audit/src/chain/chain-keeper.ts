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
  /** recorded_at with its microseconds, when the read gave them; read again otherwise. */
  recordedAtMicros?: string;
}

/**
 * Links one feed batch (in feed order, as the subscription hands it over) onto the chain, in the
 * subscription's transaction, so the links and the chain's checkpoint commit together: a batch is
 * linked once or not at all.
 */
export async function chainBatch(tx: SqlQueryable, events: readonly FeedEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const links = await linksOf(tx, events, await chainHead(tx));
  await insertLinks(tx, links);
  return links.length;
}

/** The batch's links after `head`, in feed order. */
export async function linksOf(
  tx: SqlQueryable,
  events: readonly FeedEvent[],
  head: ChainHead,
): Promise<StoredLink[]> {
  const recordedAt = await recordedTimes(tx, events);
  let previous = head.link ?? GENESIS_LINK;
  let seq = head.seq;
  const links: StoredLink[] = [];
  for (const event of events) {
    const at = recordedAt(event);
    // The feed just handed it out: a missing row means the log changed under us. Stop the line.
    if (at === undefined) throw new Error(`chain keeper: the event at ${event.globalPosition} vanished`);
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

/**
 * recorded_at with its microseconds: as the feed read gave it (the PostgreSQL store's reads do),
 * else read again, formatted by the database (a JavaScript Date has no microseconds).
 */
async function recordedTimes(
  tx: SqlQueryable,
  events: readonly FeedEvent[],
): Promise<(event: FeedEvent) => string | undefined> {
  if (events.every((event) => event.recordedAtMicros !== undefined)) return (event) => event.recordedAtMicros;
  const { rows } = await tx.query<{ p: string; at: string }>(
    `SELECT e.global_position::text AS p,
            to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
       FROM events e WHERE e.global_position = ANY($1::bigint[])`,
    [events.map((event) => event.globalPosition)],
  );
  const byPosition = new Map(rows.map((row) => [row.p, row.at]));
  return (event) => byPosition.get(event.globalPosition);
}
