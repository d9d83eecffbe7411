import type { SqlQueryable } from '@payouts/database';
import { compareFeedKeys, FeedKey, FEED_ORIGIN } from '../feed/audit-feed';
import { keysetPages } from '../feed/keyset-pages';

/** The chain keeper's subscription id: its checkpoint is the chain's own, in subscription_checkpoints. */
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

/** What linking alongside another subscriber reads, once the chain's lock is held: one statement. */
export interface ChainState {
  /** The chain's checkpoint, and the other subscriber's (FEED_ORIGIN when there is none). */
  chained: FeedKey;
  follower: FeedKey;
  head: ChainHead;
}

const CHAIN_STATE_SQL = `SELECT ck.last_transaction_id::text AS chain_tx, ck.last_position::text AS chain_pos,
    fk.last_transaction_id::text AS follower_tx, fk.last_position::text AS follower_pos,
    h.seq::text AS head_seq, h.link AS head_link
  FROM (SELECT 1) AS one
  LEFT JOIN subscription_checkpoints ck ON ck.subscription_id = $1
  LEFT JOIN subscription_checkpoints fk ON fk.subscription_id = $2
  LEFT JOIN LATERAL (SELECT c.seq, c.link FROM event_chain c ORDER BY c.seq DESC LIMIT 1) h ON true`;

export async function chainState(tx: SqlQueryable, followerId: string): Promise<ChainState> {
  const { rows } = await tx.queryPrepared<Record<string, string | null>>(CHAIN_STATE_SQL, [
    CHAIN_SUBSCRIPTION_ID,
    followerId,
  ]);
  const row = rows[0]!;
  const key = (transactionId: string | null | undefined, position: string | null | undefined): FeedKey =>
    transactionId && position ? { transactionId, position } : FEED_ORIGIN;
  return {
    chained: key(row.chain_tx, row.chain_pos),
    follower: key(row.follower_tx, row.follower_pos),
    head: row.head_seq ? { seq: BigInt(row.head_seq), link: row.head_link ?? null } : { seq: 0n, link: null },
  };
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
export async function chainCheckpoint(db: SqlQueryable): Promise<FeedKey> {
  const { rows } = await db.query<{ transaction_id: string; position: string }>(
    `SELECT last_transaction_id::text AS transaction_id, last_position::text AS position
       FROM subscription_checkpoints WHERE subscription_id = $1`,
    [CHAIN_SUBSCRIPTION_ID],
  );
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position: row.position } : FEED_ORIGIN;
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

/** Whether an event at `key` should already have a link. */
export function isBehindCheckpoint(key: FeedKey, checkpoint: FeedKey): boolean {
  return compareFeedKeys(key, checkpoint) <= 0;
}
