import Big from 'big.js';
import { settledInOrder, SqlQueryable } from '@payouts/database';
import { DomainError, LedgerEvent } from '@payouts/domain';
import { applyLedgerEvent, BalanceRow, emptyBalance, EPOCH, toLedgerEvent } from './balance-row';
import {
  changeStatement,
  CREATE_BALANCE_SQL,
  INSERT_TRANSACTIONS_SQL,
  LOCK_BALANCE_SQL,
  SAVE_BALANCE_SQL,
} from './balance-statements';
import {
  addRunning,
  changedDraft,
  fillReleasesFromBatch,
  RunningDeltas,
  TransactionDraft,
  transactionChangesOf,
  transactionsOf,
} from './balance-transactions';
import {
  changesEarlier,
  earlierChangeArrays,
  ledgerBatchArrays,
  settlementStatement,
  transactionArrays,
} from './balance-writes';
import { LedgerBatch, ledgerBatchOf, ownerOf } from './ledger-batch';
import { APPLY_CHANGES_SQL, APPLY_DELTAS_SQL, MOVE_LEDGERS_SQL } from './ledger-batch-statements';
import { ProjectableEvent, storedEvents, StreamSource } from './projectable-event';

/**
 * The balance read model: one row per ledger (account + environment + currency) with running
 * totals, and beside it the ledger's balance transactions and settlements. Totals move by exact
 * decimal deltas (big.js), one ledger event at a time and strictly in stream order: the row
 * remembers the ledger version it reflects, and that version is the cursor of the transactions
 * too, which are written exactly when the row moves past their event. In the common case (the row
 * is at the version just before a batch without a gap) two statements, for any number of ledgers,
 * add each batch's summed deltas, insert its transaction rows and apply its changes to earlier
 * rows and settlements (ledger-batch.ts); otherwise the row is locked and every event between its
 * version and the batch's last is read and applied in the same transaction, one at a time. A
 * replay of an already applied event therefore changes nothing, and a row that is behind heals
 * itself. The row and the pure arithmetic of each event: balance-row.ts; the rows:
 * balance-transactions.ts.
 */

/** Balance and Create refuse when the balance read model trails the ledger by more events than this. */
export const BALANCE_MAX_LAG_EVENTS = 100;

/** Raised in a command's own append when the balance trails the ledger beyond the bound it gave. */
export class BalanceUnavailableError extends DomainError {
  constructor(message = 'the balance is being recalculated; try again shortly') {
    super('balance_unavailable', message);
    this.name = 'BalanceUnavailableError';
  }
}

const keyOf = (owner: { accountId: string; environment: string; currency: string }) =>
  `${owner.accountId}\u0000${owner.environment}\u0000${owner.currency}`;

/**
 * The fast path for many ledgers: one statement moves every row at the version before its batch
 * and inserts the batch's rows; a second, for those it moved, changes their earlier rows and
 * writes their settlements. Returns the stream ids it applied.
 */
export async function applyLedgerBatches(
  tx: SqlQueryable,
  batches: readonly LedgerBatch[],
): Promise<Set<string>> {
  const full = batches.some((batch) => !batch.appendOnly);
  const moved = await tx.queryPrepared<{ account_id: string; environment: string; currency: string }>(
    full ? MOVE_LEDGERS_SQL : APPLY_DELTAS_SQL,
    ledgerBatchArrays(batches, full),
  );
  const done = new Set(
    moved.rows.map((row) =>
      keyOf({ accountId: row.account_id, environment: row.environment, currency: row.currency }),
    ),
  );
  const applied = batches.filter((b) => done.has(keyOf(b.owner)));
  const changing = applied.filter(changesEarlier);
  if (changing.length > 0) await tx.queryPrepared(APPLY_CHANGES_SQL, earlierChangeArrays(changing));
  return new Set(applied.map((b) => b.streamId));
}

export async function projectLedgerStream(
  tx: SqlQueryable,
  source: StreamSource,
  streamId: string,
  batch: readonly ProjectableEvent[],
  maxLagEvents?: number,
): Promise<void> {
  if (await alreadyProjected(tx, streamId, batch[batch.length - 1]!.streamVersion)) return;
  const fast = ledgerBatchOf(streamId, batch);
  if (fast && (await applyLedgerBatches(tx, [fast])).has(streamId)) return;
  await catchUpLedger(tx, source, streamId, batch, maxLagEvents);
}

/**
 * Whether the balance row is already at `version` or past it, read without a lock. The projector
 * mostly finds the row where the command's inline projection left it; locking it to find that
 * out held the row until the projector's batch committed, so creates on that ledger waited for
 * it, and a group commit locking ledgers in another order deadlocked with it (gateway beside the
 * projector: creates/s fell from thousands to tens, bench:chain). The version only grows, so a
 * row read at or past `version` stays so.
 */
async function alreadyProjected(tx: SqlQueryable, streamId: string, version: number): Promise<boolean> {
  const owner = ownerOf(streamId);
  const { rows } = await tx.queryPrepared<{ ledger_version: number }>(
    'SELECT ledger_version FROM payout_balances WHERE account_id = $1 AND environment = $2 AND currency = $3',
    [owner.accountId, owner.environment, owner.currency],
  );
  return (rows[0]?.ledger_version ?? -1) >= version;
}

/**
 * The slow path: lock the row (creating it when missing) and apply every event after its version
 * up to the batch's last, read from the stream, in order; then write what they did.
 */
export async function catchUpLedger(
  tx: SqlQueryable,
  source: StreamSource,
  streamId: string,
  batch: readonly ProjectableEvent[],
  maxLagEvents?: number,
): Promise<void> {
  const owner = ownerOf(streamId);
  const key = [owner.accountId, owner.environment, owner.currency];
  const fromVersion = batch[0]!.streamVersion;
  const upToVersion = batch[batch.length - 1]!.streamVersion;

  // Create the row at version 0 when it is missing (a no-op when it exists), then lock it: the
  // inline projection and the projector may reach a new ledger at the same moment.
  let locked = await tx.queryPrepared<BalanceRow>(LOCK_BALANCE_SQL, key);
  if (locked.rows.length === 0) {
    await tx.queryPrepared(CREATE_BALANCE_SQL, [...key, EPOCH]);
    locked = await tx.queryPrepared<BalanceRow>(LOCK_BALANCE_SQL, key);
  }
  const start: BalanceRow =
    locked.rows[0] ?? emptyBalance(owner.accountId, owner.environment, owner.currency);
  if (start.ledger_version >= upToVersion) return;
  const lag = fromVersion - 1 - start.ledger_version;
  if (maxLagEvents !== undefined && lag > maxLagEvents) throw new BalanceUnavailableError();

  // Behind, or a batch with a gap: every event after the row's version.
  const pending = await storedEvents(source, tx, streamId, start.ledger_version + 1, upToVersion);
  const applied = applyInOrder(
    streamId,
    start,
    pending.map((event) => ({ version: event.streamVersion, event: toLedgerEvent(event) })),
  );
  // Changes to earlier batches' rows first, in ledger order, before this batch's rows exist (they
  // were changed in memory already); then the rows, then the balance row. Issued together: one
  // connection runs them in this order.
  const writes: Promise<unknown>[] = applied.statements.map(([sql, params]) =>
    tx.queryPrepared(sql, [...key, ...params]),
  );
  if (applied.drafts.length > 0) {
    const rows = fillReleasesFromBatch(applied.drafts.map((d) => d.draft));
    const written = rows.map((draft, i) => ({ owner, draft, running: applied.drafts[i]!.running }));
    writes.push(tx.queryPrepared(INSERT_TRANSACTIONS_SQL, transactionArrays(written)));
  }
  writes.push(saveBalance(tx, applied.row));
  await settledInOrder(writes);
}

interface Applied {
  row: BalanceRow;
  drafts: { draft: TransactionDraft; running: RunningDeltas }[];
  statements: [string, unknown[]][];
}

/** Pure: the balance, the new rows with their running balances and the statements of a run of events. */
function applyInOrder(
  streamId: string,
  start: BalanceRow,
  events: readonly { version: number; event: LedgerEvent }[],
): Applied {
  let row = start;
  let drafts: Applied['drafts'] = [];
  const statements: [string, unknown[]][] = [];
  for (const { version, event } of events) {
    for (const change of transactionChangesOf(event)) {
      drafts = drafts.map((d) => ({ ...d, draft: changedDraft(d.draft, change) }));
      statements.push(changeStatement(change));
    }
    const settlement = settlementStatement(event, version);
    if (settlement) statements.push(settlement);
    let running: RunningDeltas = runningOf(row);
    const added = transactionsOf(streamId, event, version);
    for (const draft of added) {
      running = addRunning(running, draft.effect);
      drafts.push({ draft, running });
    }
    row = applyLedgerEvent(row, event, version);
    if (added.length > 0) assertRunningMatches(running, row, event);
  }
  return { row, drafts, statements };
}

const runningOf = (row: BalanceRow): RunningDeltas => ({
  pending: new Big(row.pending),
  available: new Big(row.available),
  holds: new Big(row.customer_payout_holds),
  settlementHolds: new Big(row.merchant_settlement_holds),
});

/** An event's rows account for all it did to the four running balances: a mismatch is a bug here. */
function assertRunningMatches(running: RunningDeltas, row: BalanceRow, event: LedgerEvent): void {
  const expected = runningOf(row);
  const keys = ['pending', 'available', 'holds', 'settlementHolds'] as const;
  if (keys.some((k) => !running[k].eq(expected[k]))) {
    throw new Error(`balance transactions of ${event.type} do not add up to its effect on the balance`);
  }
}

async function saveBalance(tx: SqlQueryable, row: BalanceRow): Promise<void> {
  await tx.queryPrepared(SAVE_BALANCE_SQL, [
    row.account_id,
    row.environment,
    row.currency,
    row.ledger_version,
    row.funds_in,
    row.available,
    row.customer_payout_holds,
    row.customer_payouts_settled,
    row.merchant_settlement_holds,
    row.retained_target,
    row.pending,
    row.gross_proceeds,
    row.processing_fees,
    row.matured_proceeds,
    row.operator_credits,
    row.settlements_paid,
    row.fee_per_payout,
    row.min_payout,
    row.max_payout,
    row.max_open_exposure,
    row.max_pending_per_customer,
    row.updated_at,
  ]);
}
