import type { SqlQueryable } from '@payouts/database';
import { auditEventsAt } from '../feed/audit-feed';
import { chainHead, insertLinks, StoredLink } from './chain-store';
import { chainLink, GENESIS_LINK } from './chain-link';

/**
 * Links one feed batch onto the chain, in the subscription's transaction, so the links and the
 * chain's checkpoint commit together (a batch is linked once or not at all). The batch is
 * re-read by position because the subscriber's events carry recorded_at as a JavaScript Date,
 * which has no microseconds.
 */
export async function chainBatch(tx: SqlQueryable, positions: readonly string[]): Promise<number> {
  if (positions.length === 0) return 0;
  const events = await auditEventsAt(tx, positions);
  if (events.length !== positions.length) {
    // The feed just handed these out: a missing row means the log changed under us. Stop the line.
    throw new Error(`chain keeper: ${positions.length - events.length} event(s) of the batch vanished`);
  }
  const head = await chainHead(tx);
  let previous = head.link ?? GENESIS_LINK;
  let seq = head.seq;
  const links: StoredLink[] = [];
  for (const event of events) {
    previous = chainLink(previous, event);
    seq += 1n;
    links.push({
      position: event.position,
      transactionId: event.transactionId,
      streamId: event.streamId,
      seq: String(seq),
      link: previous,
    });
  }
  await insertLinks(tx, links);
  return links.length;
}
