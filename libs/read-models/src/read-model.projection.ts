import { settledInOrder, SqlQueryable } from '@payouts/database';
import { LEDGER_STREAM_TYPE, ORDER_STREAM_TYPE, PAYOUT_STREAM_TYPE } from '@payouts/domain';
import { applyLedgerBatches, catchUpLedger, projectLedgerStream } from './balance.projection';
import { projectNewOrders, projectOrderStream } from './checkout-orders.projection';
import { LedgerBatch, ledgerBatchOf } from './ledger-batch';
import { projectNewPayouts, projectPayoutStream } from './payout-list.projection';
import { ProjectableEvent, StreamSource } from './projectable-event';

export interface ProjectionOptions {
  /**
   * For a command's own append: refuse (BalanceUnavailableError, and the append rolls back) when
   * the balance read model trailed the ledger by more than this many events before it. Unset for
   * the projector, whose job is to catch up however far behind it is.
   */
  maxBalanceLagEvents?: number;
  /**
   * For a command's own append (alone or in a group commit): project every stream at once, so on
   * a server the statements travel with the append's (pipelined), and the common cases of many
   * streams (new payouts, ledgers at the version before their events) are one statement each. Rows
   * are then locked in no set order, which can deadlock with the projector; the event store hands a
   * deadlock back as a conflict that the command retries. The projector, which has no retry of
   * that kind, keeps stream order, one stream at a time.
   */
  concurrentStreams?: boolean;
}

/**
 * Brings every read model up to date with a batch of events, inside the caller's transaction:
 * the append's own transaction (read-your-writes) or the projector's (with its checkpoint).
 * Each stream is projected once, to the highest version in the batch, from the batch's events
 * where they are enough and from the stream (read from `source`, the event store, within `tx`)
 * where they are not.
 */
export async function projectReadModels(
  tx: SqlQueryable,
  source: StreamSource,
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
  const payouts = new Map<string, ProjectableEvent[]>();
  const ledgers = new Map<string, ProjectableEvent[]>();
  const orders = new Map<string, ProjectableEvent[]>();
  for (const streamId of [...byStream.keys()].sort(byCodeUnits)) {
    const streamEvents = inVersionOrder([...byStream.get(streamId)!.values()]);
    const type = streamEvents[0]!.streamType;
    if (type === PAYOUT_STREAM_TYPE) payouts.set(streamId, streamEvents);
    else if (type === LEDGER_STREAM_TYPE) ledgers.set(streamId, streamEvents);
    else if (type === ORDER_STREAM_TYPE) orders.set(streamId, streamEvents);
  }
  if (options.concurrentStreams) {
    // Every branch runs to its end before this returns or throws: none issues statements late.
    await settledInOrder<unknown>([
      projectNewPayouts(tx, payouts).then((rest) =>
        settledInOrder(
          rest.map((streamId) => projectPayoutStream(tx, source, streamId, payouts.get(streamId)!)),
        ),
      ),
      projectLedgers(tx, source, ledgers, options.maxBalanceLagEvents),
      projectNewOrders(tx, orders).then((rest) =>
        settledInOrder(
          rest.map((streamId) => projectOrderStream(tx, source, streamId, orders.get(streamId)!)),
        ),
      ),
    ]);
    return;
  }
  // The projector: one stream at a time, in stream-id order across both read models.
  const inOrder = [...payouts, ...ledgers, ...orders].sort(([a], [b]) => byCodeUnits(a, b));
  for (const [streamId, batch] of inOrder) {
    if (payouts.has(streamId)) await projectPayoutStream(tx, source, streamId, batch);
    else if (orders.has(streamId)) await projectOrderStream(tx, source, streamId, batch);
    else await projectLedgerStream(tx, source, streamId, batch, options.maxBalanceLagEvents);
  }
}

/** Every ledger batch without a gap in one statement; the rest (and any row not where expected) one by one. */
async function projectLedgers(
  tx: SqlQueryable,
  source: StreamSource,
  ledgers: ReadonlyMap<string, readonly ProjectableEvent[]>,
  maxLagEvents: number | undefined,
): Promise<void> {
  const common: LedgerBatch[] = [];
  for (const [streamId, batch] of ledgers) {
    const fast = ledgerBatchOf(streamId, batch);
    if (fast) common.push(fast);
  }
  const applied = common.length > 0 ? await applyLedgerBatches(tx, common) : new Set<string>();
  await settledInOrder(
    [...ledgers]
      .filter(([streamId]) => !applied.has(streamId))
      .map(([streamId, batch]) => catchUpLedger(tx, source, streamId, batch, maxLagEvents)),
  );
}

/** Names of the read-model tables, in the order a rebuild truncates them. */
export const READ_MODEL_TABLES = [
  'payout_list',
  'payout_balances',
  'balance_transactions',
  'settlements',
  'checkout_orders',
] as const;
export const READ_MODEL_SUBSCRIPTION_ID = 'read-models';

/**
 * The read models' indexes, beyond keys and unique ones, that the projections' own statements find
 * rows by (balance-statements.ts, ledger-batch-statements.ts): a matured order's rows, a released
 * payout's reservation, a ledger's uncovered rows, a settlement's rows. Every other index serves
 * the API's lists only, so a rebuild can write without it and build it afterwards (the audit's
 * replay does: each index a row carries is a write per row). A test checks each name exists.
 */
export const PROJECTION_LOOKUP_INDEXES: readonly string[] = [
  'balance_transactions_by_order',
  'balance_transactions_by_payout',
  'balance_transactions_uncovered',
  'balance_transactions_by_settlement',
];

/**
 * Stream ids in code-unit order: any fixed order keeps two projector transactions from
 * deadlocking, and this one is a plain comparison of strings, where localeCompare's collation made
 * the sort of a batch's few thousand ids twice as slow (3.6 ms against 1.8 ms for 5,000).
 */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A stream's events of the batch by version. They mostly come in order already (one or two a
 * stream), and a sort of each allocated 290 MB in a 1M-event replay (docs/performance.md).
 */
function inVersionOrder(events: ProjectableEvent[]): ProjectableEvent[] {
  for (let i = 1; i < events.length; i += 1) {
    if (events[i]!.streamVersion < events[i - 1]!.streamVersion) {
      return events.sort((a, b) => a.streamVersion - b.streamVersion);
    }
  }
  return events;
}
