import { SqlQueryable } from '@payouts/database';
import { AppendResult, EventStore, StreamAppend } from '@payouts/event-store';
import { projectReadModels, ProjectionOptions } from '@payouts/read-models';

export interface AppendWithReadModelsOptions extends ProjectionOptions {
  /** Runs last in the same transaction, e.g. to store the request's idempotent answer with it. */
  alsoInTransaction?: (tx: SqlQueryable) => Promise<void>;
}

/**
 * Appends and updates the read models in the same transaction, so a payout is visible to Get,
 * List and Balance the moment its command returns (read-your-writes). The projector applies the
 * same projections from the global feed; both are idempotent by stream version.
 */
export function appendWithReadModels(
  store: EventStore,
  appends: StreamAppend[],
  options: AppendWithReadModelsOptions = {},
): Promise<AppendResult> {
  return store.append(appends, {
    // Both issued at once, so their statements go out together with the append's.
    inTransaction: async (tx, events) => {
      await Promise.all([
        projectReadModels(tx, events, { ...options, concurrentStreams: true }),
        options.alsoInTransaction?.(tx),
      ]);
    },
  });
}
