import { SqlQueryable } from '@payouts/database';
import { DomainError } from '@payouts/domain';
import { CREATE_BALANCE_SQL, EPOCH, LOCK_BALANCE_SQL } from './balance-statements';
import { changesEarlier, earlierChangeArrays, ledgerBatchArrays } from './balance-writes';
import { LedgerBatch, ledgerBatchOf, ownerOf } from './ledger-batch';
import { APPLY_CHANGES_SQL, APPLY_DELTAS_SQL, MOVE_LEDGERS_SQL } from './ledger-batch-statements';
import { isContiguous, ProjectableEvent, storedEvents, StreamSource } from './projectable-event';

/**
 * The balance read model: one row per ledger (account + environment + currency) with running
 * totals, and beside it the ledger's balance transactions and settlements. It is one projection
 * that takes a batch (ledger-batch.ts works out, in memory, all a contiguous run of a ledger's
 * events does): the row remembers the ledger version it reflects, and that version is the cursor
 * of the transactions too, which are written exactly when the row moves past their event. Where
 * the row is at the version just before its batch, two statements, for any number of ledgers,
 * add each batch's summed movements (the domain's ledgerMovement, the one rule of the money),
 * insert its transaction rows and apply its changes to earlier rows and settlements; otherwise
 * (catchUpLedger) the row is locked and the run from its version to the batch's last, read from
 * the stream where the batch lacks it, goes through the same statements as a batch of one ledger.
 * A replay of an already applied event therefore changes nothing, and a row that is behind heals
 * itself. The rows: balance-transactions.ts.
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
 * Applies batches of any number of ledgers: one statement moves every row at the version before
 * its batch and inserts the batch's rows; a second, for those it moved, changes their earlier rows
 * and writes their settlements. A row anywhere else is left alone. Returns the stream ids it applied.
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

/** One ledger's batch: as it is where the row is right before it, else through catchUpLedger. */
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
 * A batch whose row is not at the version before it (missing, behind, or a batch with a gap): lock
 * the row (creating it when missing), then hand every event after its version up to the batch's
 * last, read from the stream where the batch lacks them, to applyLedgerBatches as one batch. The
 * lock holds the row at that version, so the batch applies.
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
  let locked = await tx.queryPrepared<{ ledger_version: number }>(LOCK_BALANCE_SQL, key);
  if (locked.rows.length === 0) {
    await tx.queryPrepared(CREATE_BALANCE_SQL, [...key, EPOCH]);
    locked = await tx.queryPrepared<{ ledger_version: number }>(LOCK_BALANCE_SQL, key);
  }
  const version = locked.rows[0]?.ledger_version ?? 0;
  if (version >= upToVersion) return;
  const lag = fromVersion - 1 - version;
  if (maxLagEvents !== undefined && lag > maxLagEvents) throw new BalanceUnavailableError();

  const run = await eventsAfter(tx, source, streamId, version, batch);
  const whole = run[0]?.streamVersion === version + 1 ? ledgerBatchOf(streamId, run) : null;
  if (!whole || !(await applyLedgerBatches(tx, [whole])).has(streamId)) {
    throw new Error(`the events of ${streamId} after version ${version} did not apply to its locked row`);
  }
}

/**
 * The stream's events after `version` up to the batch's last, without a gap: the batch's own
 * where it holds them, the stream's (read through `source`, within `tx`) before them or where the
 * batch has a gap. A new ledger's first batch needs no read.
 */
async function eventsAfter(
  tx: SqlQueryable,
  source: StreamSource,
  streamId: string,
  version: number,
  batch: readonly ProjectableEvent[],
): Promise<readonly ProjectableEvent[]> {
  const first = batch[0]!.streamVersion;
  const last = batch[batch.length - 1]!.streamVersion;
  if (!isContiguous(batch)) return storedEvents(source, tx, streamId, version + 1, last);
  const own = first > version ? batch : batch.slice(version + 1 - first);
  if (first <= version + 1) return own;
  return [...(await storedEvents(source, tx, streamId, version + 1, first - 1)), ...own];
}
