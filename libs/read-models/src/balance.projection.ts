import Big from 'big.js';
import { settledInOrder, SqlQueryable } from '@payouts/database';
import { DomainError, LedgerEvent, ledgerOwnerFromStreamId, LedgerOwner } from '@payouts/domain';
import {
  addDeltas,
  applyLedgerEvent,
  BalanceDeltas,
  BalanceRow,
  emptyBalance,
  EPOCH,
  isAppendOnlyMovement,
  ledgerDeltas,
  NO_DELTAS,
  toLedgerEvent,
} from './balance-row';
import {
  APPLY_DELTAS_SQL,
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
  NO_RUNNING,
  RunningDeltas,
  TransactionDraft,
  transactionChangesOf,
  transactionsOf,
} from './balance-transactions';
import { settlementStatement, transactionArrays, WrittenTransaction } from './balance-writes';
import { isContiguous, ProjectableEvent } from './projectable-event';

/**
 * The balance read model: one row per ledger (account + environment + currency) with running
 * totals, and beside it the ledger's balance transactions and settlements. Totals move by exact
 * decimal deltas (big.js), one ledger event at a time and strictly in stream order: the row
 * remembers the ledger version it reflects, and that version is the cursor of the transactions
 * too, which are written exactly when the row moves past their event. In the common case (the row
 * is at the version just before a batch of append-only movements) one statement adds the batch's
 * summed deltas and inserts its transaction rows; otherwise the row is locked and every event
 * between its version and the batch's last is read and applied in the same transaction. A replay
 * of an already applied event therefore changes nothing, and a row that is behind heals itself.
 * The row and the pure arithmetic of each event: balance-row.ts; the rows: balance-transactions.ts.
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

/** A ledger batch the common case can apply: contiguous, and only append-only movements. */
export interface LedgerDeltas {
  streamId: string;
  owner: LedgerOwner;
  fromVersion: number;
  upToVersion: number;
  total: BalanceDeltas;
  at: string;
  /** The batch's rows; `running` is what the rows after each still add to the batch's end. */
  transactions: WrittenTransaction[];
}

function ownerOf(streamId: string): LedgerOwner {
  const owner = ledgerOwnerFromStreamId(streamId);
  if (!owner) throw new Error(`${streamId} is not a ledger stream id`);
  return owner;
}

const keyOf = (owner: { accountId: string; environment: string; currency: string }) =>
  `${owner.accountId}\u0000${owner.environment}\u0000${owner.currency}`;

/** The batch's summed deltas and rows, or null when it needs the slow path. */
export function ledgerDeltasOf(streamId: string, batch: readonly ProjectableEvent[]): LedgerDeltas | null {
  const owner = ownerOf(streamId);
  const events = batch.map((event) => toLedgerEvent(event));
  if (!isContiguous(batch) || !events.every(isAppendOnlyMovement)) return null;
  const drafts = fillReleasesFromBatch(
    events.flatMap((event, i) => transactionsOf(streamId, event, batch[i]!.streamVersion)),
  );
  // Counted from the end: what every later row of the batch adds, which the statement subtracts
  // from the moved row to give the balances right after this row without reading the row first.
  const transactions: WrittenTransaction[] = [];
  let after: RunningDeltas = NO_RUNNING;
  for (const draft of [...drafts].reverse()) {
    transactions.unshift({ owner, draft, running: after });
    after = addRunning(after, draft.effect);
  }
  return {
    streamId,
    owner,
    fromVersion: batch[0]!.streamVersion,
    upToVersion: batch[batch.length - 1]!.streamVersion,
    total: events.reduce((sum, event) => addDeltas(sum, ledgerDeltas(event)), NO_DELTAS),
    at: events[events.length - 1]!.data.at,
    transactions,
  };
}

/** The common case for many ledgers in one statement; returns the stream ids it applied. */
export async function applyLedgerDeltas(
  tx: SqlQueryable,
  batches: readonly LedgerDeltas[],
): Promise<Set<string>> {
  const column = (pick: (batch: LedgerDeltas) => string) => batches.map(pick);
  const money = (pick: (total: BalanceDeltas) => Big) => column((b) => pick(b.total).toFixed(2));
  const applied = await tx.queryPrepared<{ account_id: string; environment: string; currency: string }>(
    APPLY_DELTAS_SQL,
    [
      column((b) => b.owner.accountId),
      column((b) => b.owner.environment),
      column((b) => b.owner.currency),
      column((b) => String(b.fromVersion - 1)),
      column((b) => String(b.upToVersion)),
      money((t) => t.fundsIn),
      money((t) => t.available),
      money((t) => t.holds),
      money((t) => t.settled),
      money((t) => t.pending),
      money((t) => t.gross),
      money((t) => t.fees),
      money((t) => t.credits),
      column((b) => b.at),
      ...transactionArrays(batches.flatMap((b) => b.transactions)),
    ],
  );
  const done = new Set(
    applied.rows.map((row) =>
      keyOf({ accountId: row.account_id, environment: row.environment, currency: row.currency }),
    ),
  );
  return new Set(batches.filter((b) => done.has(keyOf(b.owner))).map((b) => b.streamId));
}

export async function projectLedgerStream(
  tx: SqlQueryable,
  streamId: string,
  batch: readonly ProjectableEvent[],
  maxLagEvents?: number,
): Promise<void> {
  if (await alreadyProjected(tx, streamId, batch[batch.length - 1]!.streamVersion)) return;
  const deltas = ledgerDeltasOf(streamId, batch);
  if (deltas && (await applyLedgerDeltas(tx, [deltas])).has(streamId)) return;
  await catchUpLedger(tx, streamId, batch, maxLagEvents);
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

  // Behind, or a batch that is not append-only or has a gap: every event after the row's version.
  const pending = await tx.queryPrepared<{
    stream_version: number;
    event_type: string;
    schema_version: number;
    data: unknown;
  }>(
    `SELECT stream_version, event_type, schema_version, data FROM events
      WHERE stream_id = $1 AND stream_version > $2 AND stream_version <= $3 ORDER BY stream_version`,
    [streamId, start.ledger_version, upToVersion],
  );
  const applied = applyInOrder(
    streamId,
    start,
    pending.rows.map((event) => ({
      version: event.stream_version,
      event: toLedgerEvent({ type: event.event_type, schemaVersion: event.schema_version, data: event.data }),
    })),
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
