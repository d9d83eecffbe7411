import { AppendResult, EventStore, StreamAppend } from '@payouts/event-store';
import { projectReadModels } from '@payouts/read-models';

/**
 * Appends and updates the read models in the same transaction, so a payout is visible to Get,
 * List and Balance the moment its command returns (read-your-writes). The projector applies the
 * same projections from the global feed; both are idempotent by stream version.
 */
export function appendWithReadModels(store: EventStore, appends: StreamAppend[]): Promise<AppendResult> {
  return store.append(appends, { inTransaction: (tx, events) => projectReadModels(tx, events) });
}
