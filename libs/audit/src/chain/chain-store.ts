import { settledInOrder, SqlQueryable } from '@payouts/database';
import { EventStore, loadSubscriptionCheckpoint } from '@payouts/event-store';
import { compareFeedKeys, FeedKey, FEED_ORIGIN } from '../feed/audit-feed';
import { keysetPages } from '../feed/keyset-pages';

/**
 * The chain's own table, event_chain, is read and written here alone. Its checkpoint is the chain
 * keeper's subscription's, which the event store keeps: it is read through the store.
 */

/** The chain keeper's subscription id: the store keeps its checkpoint, the chain's own. */
export const CHAIN_SUBSCRIPTION_ID = 'event-chain';

export interface StoredLink extends FeedKey {
  streamId: string;
  seq: string;
  link: string;
}

export interface ChainHead {
  seq: bigint;
  link: string | null;
}

/** The last link written (seq 0 and no link before the first). */
export async function chainHead(db: SqlQueryable): Promise<ChainHead> {
  const { rows } = await db.query<{ seq: string; link: string }>(
    'SELECT c.seq::text AS seq, c.link FROM event_chain c ORDER BY c.seq DESC LIMIT 1',
  );
  const row = rows[0];
  return row ? { seq: BigInt(row.seq), link: row.link } : { seq: 0n, link: null };
}

/** What linking alongside another subscriber reads, once the chain's lock is held. */
export interface ChainState {
  /** The chain's checkpoint, and the other subscriber's (FEED_ORIGIN when there is none). */
  chained: FeedKey;
  follower: FeedKey;
  head: ChainHead;
}

/**
 * Inside the follower's batch transaction, so the checkpoints are read in it, through the store's
 * own in-transaction read (the one its subscriptions use). Issued together: on a server the three
 * statements travel in one round trip.
 */
export async function chainState(tx: SqlQueryable, followerId: string): Promise<ChainState> {
  const chained = loadSubscriptionCheckpoint(tx, CHAIN_SUBSCRIPTION_ID);
  const follower = loadSubscriptionCheckpoint(tx, followerId);
  const head = chainHead(tx);
  await settledInOrder<unknown>([chained, follower, head]);
  return { chained: await chained, follower: await follower, head: await head };
}

export async function insertLinks(tx: SqlQueryable, links: readonly StoredLink[]): Promise<void> {
  if (links.length === 0) return;
  await tx.query(
    `INSERT INTO event_chain (global_position, transaction_id, stream_id, seq, link)
     SELECT p, t::xid8, i, s, l
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[]) AS u(p, t, i, s, l)`,
    [
      links.map((l) => l.position),
      links.map((l) => l.transactionId),
      links.map((l) => l.streamId),
      links.map((l) => l.seq),
      links.map((l) => l.link),
    ],
  );
}

/** How far the chain keeper has linked the feed (FEED_ORIGIN when it never has). */
export function chainCheckpoint(store: Pick<EventStore, 'loadCheckpoint'>): Promise<FeedKey> {
  return store.loadCheckpoint(CHAIN_SUBSCRIPTION_ID);
}

// Qualified on purpose: an unqualified ORDER BY name is the output column, the text cast. Named
// as StoredLink's fields, so each row is a link as it comes (verify reads one per event).
const LINK_PAGE_SQL = `SELECT c.global_position::text AS position, c.transaction_id::text AS "transactionId",
    c.stream_id AS "streamId", c.seq::text AS seq, c.link
  FROM event_chain c
  WHERE (c.transaction_id, c.global_position) > ($1::xid8, $2::bigint)
  ORDER BY c.transaction_id, c.global_position
  LIMIT $3`;

/** Every stored link in feed order, a page of `batchSize` at a time (read ahead). */
export function storedLinkPages(db: SqlQueryable, batchSize: number): AsyncGenerator<StoredLink[]> {
  return keysetPages(
    async (key) =>
      (await db.queryPrepared<StoredLink>(LINK_PAGE_SQL, [key.transactionId, key.position, batchSize])).rows,
    (link) => link,
    FEED_ORIGIN,
    batchSize,
  );
}

/** A stored link with the link before it (64 zeros before the first), as the export prints them. */
export interface ExportedLink extends StoredLink {
  previous: string;
}

const LINKS_BETWEEN_SQL = `SELECT c.global_position::text AS position, c.transaction_id::text AS "transactionId",
    c.stream_id AS "streamId", c.seq::text AS seq, c.link,
    CASE WHEN c.seq = 1 THEN repeat('0', 64) ELSE p.link END AS previous
  FROM event_chain c
  LEFT JOIN event_chain p ON p.seq = c.seq - 1
  WHERE (c.transaction_id, c.global_position) >= ($1::xid8, $2::bigint)
    AND (c.transaction_id, c.global_position) <= ($3::xid8, $4::bigint)
  ORDER BY c.transaction_id, c.global_position`;

/** The stored links from `first` to `last` in feed order (both included), each with the one before it. */
export async function linksBetween(db: SqlQueryable, first: FeedKey, last: FeedKey): Promise<ExportedLink[]> {
  const { rows } = await db.query<ExportedLink>(LINKS_BETWEEN_SQL, [
    first.transactionId,
    first.position,
    last.transactionId,
    last.position,
  ]);
  return rows;
}

/** Whether an event at `key` should already have a link. */
export function isBehindCheckpoint(key: FeedKey, checkpoint: FeedKey): boolean {
  return compareFeedKeys(key, checkpoint) <= 0;
}
