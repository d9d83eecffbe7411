import { SqlQueryable } from '@payouts/database';
import { LEDGER_STREAM_TYPE, PAYOUT_STREAM_TYPE } from '@payouts/domain';
import { projectLedgerStream } from './balance.projection';
import { projectPayoutStream } from './payout-list.projection';
import { ProjectableEvent } from './projectable-event';

export interface ProjectionOptions {
  /**
   * For a command's own append: refuse (BalanceUnavailableError, and the append rolls back) when
   * the balance read model trailed the ledger by more than this many events before it. Unset for
   * the projector, whose job is to catch up however far behind it is.
   */
  maxBalanceLagEvents?: number;
  /**
   * For a command's own append: issue every stream's statements without waiting for the one
   * before, so on a server they travel with the append's (pipelined). They are still issued in
   * stream order; only a stream that needs its slow path then reads and locks out of that order,
   * which can deadlock with the projector, and the event store hands a deadlock back as a conflict
   * that the command retries. The projector, which has no retry of that kind, keeps them in order.
   */
  concurrentStreams?: boolean;
}

/**
 * Brings every read model up to date with a batch of events, inside the caller's transaction:
 * the append's own transaction (read-your-writes) or the projector's (with its checkpoint).
 * Each stream is projected once, to the highest version in the batch, from the batch's events
 * where they are enough and from the stream where they are not.
 */
export async function projectReadModels(
  tx: SqlQueryable,
  events: readonly ProjectableEvent[],
  options: ProjectionOptions = {},
): Promise<void> {
  const byStream = new Map<string, Map<number, ProjectableEvent>>();
  for (const event of events) {
    const stream = byStream.get(event.streamId) ?? new Map<number, ProjectableEvent>();
    stream.set(event.streamVersion, event);
    byStream.set(event.streamId, stream);
  }
  // A fixed order keeps two transactions that touch the same rows from deadlocking.
  const streamIds = [...byStream.keys()].sort((a, b) => a.localeCompare(b));
  const projectStream = (streamId: string): Promise<void> => {
    const streamEvents = [...byStream.get(streamId)!.values()].sort(
      (a, b) => a.streamVersion - b.streamVersion,
    );
    const streamType = streamEvents[0]!.streamType;
    if (streamType === PAYOUT_STREAM_TYPE) return projectPayoutStream(tx, streamId, streamEvents);
    if (streamType === LEDGER_STREAM_TYPE) {
      return projectLedgerStream(tx, streamId, streamEvents, options.maxBalanceLagEvents);
    }
    return Promise.resolve();
  };
  if (options.concurrentStreams) {
    await Promise.all(streamIds.map(projectStream));
    return;
  }
  for (const streamId of streamIds) await projectStream(streamId);
}

/** Names of the read-model tables, in the order a rebuild truncates them. */
export const READ_MODEL_TABLES = ['payout_list', 'payout_balances'] as const;
export const READ_MODEL_SUBSCRIPTION_ID = 'read-models';
