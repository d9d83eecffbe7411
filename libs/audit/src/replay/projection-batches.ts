import { settledInOrder, SqlClient } from '@payouts/database';
import { projectReadModels } from '@payouts/read-models';
import type { PinnedEvent } from './pinned-feed';
import { inScratchSchema } from './scratch-schemas';

/**
 * Scratch connections a replay projects on at once, on a server (the embedded database has one).
 * No two streams share a read-model row (a payout's row, an order's, a ledger's balance, its
 * transactions and its settlements), so a batch split by stream can be projected by several
 * transactions side by side, as concurrent commands' appends are.
 */
export const REPLAY_CONNECTIONS = 2;

export interface BatchProjection {
  /** The scratch schema written. */
  schema: string;
  /** projectReadModels' option: true as a command's append projects, false as the projector does. */
  concurrentStreams: boolean;
  /** Transactions side by side, each with a share of the batch's streams. */
  connections: number;
}

/** One batch into one scratch schema, with the product's own projection code, split by stream. */
export async function projectBatch(
  scratch: SqlClient,
  events: readonly PinnedEvent[],
  how: BatchProjection,
): Promise<void> {
  const shares: PinnedEvent[][] = Array.from({ length: how.connections }, () => []);
  for (const event of events) shares[shareOf(event.streamId, how.connections)]!.push(event);
  await settledInOrder(
    shares
      .filter((share) => share.length > 0)
      .map((share) =>
        inScratchSchema(scratch, how.schema, (tx) =>
          projectReadModels(tx, share, { concurrentStreams: how.concurrentStreams }),
        ),
      ),
  );
}

/** FNV-1a of the stream id: every event of a stream goes to the same share. */
function shareOf(streamId: string, shares: number): number {
  if (shares === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < streamId.length; i += 1) hash = Math.imul(hash ^ streamId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shares;
}
