import { settledInOrder, SqlQueryable } from '@payouts/database';
import { AppendOptions, AppendResult, EventStore, StreamAppend } from '@payouts/event-store';
import { projectReadModels, ProjectionOptions } from '@payouts/read-models';

export interface AppendWithReadModelsOptions extends ProjectionOptions {
  /** Runs last in the same transaction, e.g. to store the request's idempotent answer with it. */
  alsoInTransaction?: (tx: SqlQueryable) => Promise<void>;
}

export type InTransactionHook = NonNullable<AppendOptions['inTransaction']>;

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
  return store.append(appends, { inTransaction: readModelsHook(options) });
}

/** The in-transaction work of one command's append: its projections, then its own extra work. */
export function readModelsHook(options: AppendWithReadModelsOptions): InTransactionHook {
  // Set field by field, not spread (README, Architecture: allocation on the hot path).
  const projection: ProjectionOptions = { concurrentStreams: true };
  if (options.maxBalanceLagEvents !== undefined) projection.maxBalanceLagEvents = options.maxBalanceLagEvents;
  // Both issued at once, so their statements go out together with the append's; the hook ends
  // only when both have (a failure of one must not leave the other issuing statements).
  return async (tx, events) => {
    await settledInOrder([
      projectReadModels(tx, events, projection),
      Promise.resolve(options.alsoInTransaction?.(tx)),
    ]);
  };
}
