import { SqlQueryable } from '@payouts/database';
import { LEDGER_STREAM_TYPE, PAYOUT_STREAM_TYPE } from '@payouts/domain';
import { projectLedgerStream } from './balance.projection';
import { projectPayoutStream } from './payout-list.projection';

/** The parts of a recorded event the projections need (the event store's RecordedEvent has them). */
export interface ProjectableEvent {
  streamId: string;
  streamType: string;
  streamVersion: number;
}

/**
 * Brings every read model up to date with a batch of events, inside the caller's transaction:
 * the append's own transaction (read-your-writes) or the projector's (with its checkpoint).
 * Each stream is projected once, to the highest version in the batch.
 */
export async function projectReadModels(
  tx: SqlQueryable,
  events: readonly ProjectableEvent[],
): Promise<void> {
  const highest = new Map<string, ProjectableEvent>();
  for (const event of events) {
    const seen = highest.get(event.streamId);
    if (!seen || seen.streamVersion < event.streamVersion) highest.set(event.streamId, event);
  }
  // A fixed order keeps two transactions that touch the same rows from deadlocking.
  for (const event of [...highest.values()].sort((a, b) => a.streamId.localeCompare(b.streamId))) {
    if (event.streamType === PAYOUT_STREAM_TYPE)
      await projectPayoutStream(tx, event.streamId, event.streamVersion);
    else if (event.streamType === LEDGER_STREAM_TYPE)
      await projectLedgerStream(tx, event.streamId, event.streamVersion);
  }
}

/** Names of the read-model tables, in the order a rebuild truncates them. */
export const READ_MODEL_TABLES = ['payout_list', 'payout_balances'] as const;
export const READ_MODEL_SUBSCRIPTION_ID = 'read-models';
