import { SqlQueryable } from '@payouts/database';
import { DomainError, ledgerOwnerFromStreamId } from '@payouts/domain';
import {
  addDeltas,
  applyLedgerEvent,
  BalanceDeltas,
  BalanceRow,
  emptyBalance,
  EPOCH,
  isMoneyMovement,
  moneyDeltas,
  NO_DELTAS,
  toLedgerEvent,
} from './balance-row';
import { isContiguous, ProjectableEvent } from './projectable-event';

/**
 * The balance read model: one row per ledger (account + environment) with running totals.
 * Totals move by exact decimal deltas (big.js), one ledger event at a time and strictly in
 * stream order: the row remembers the ledger version it reflects. In the common case (the row is
 * at the version just before a batch that only moves money) the batch's summed deltas are added in
 * one statement; otherwise the row is locked and every event between its version and the batch's
 * last is read and applied in the same transaction. A replay of an already applied event
 * therefore changes nothing, and a row that is behind heals itself. The row and the pure
 * arithmetic of each event: balance-row.ts.
 */

const BALANCE_COLUMNS = `account_id, environment, ledger_version, currency, funds_in::text, available::text,
  customer_payout_holds::text, customer_payouts_settled::text, merchant_settlement_holds::text,
  retained_target::text, fee_per_payout::text, min_payout::text, max_payout::text, max_open_exposure::text,
  max_pending_per_customer, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

/** Balance and Create refuse when the balance read model trails the ledger by more events than this. */
export const BALANCE_MAX_LAG_EVENTS = 100;

/** Raised in a command's own append when the balance trails the ledger beyond the bound it gave. */
export class BalanceUnavailableError extends DomainError {
  constructor(message = 'the balance is being recalculated; try again shortly') {
    super('balance_unavailable', message);
    this.name = 'BalanceUnavailableError';
  }
}

// The common case, for any number of ledgers in one statement: a row exactly at the version before
// its batch, and a batch that only moves money, has the batch's exact decimal deltas (summed with
// big.js) added in numeric. A row that is not at that version is left alone and not returned.
const APPLY_DELTAS_SQL = `UPDATE payout_balances b SET ledger_version = u.to_version,
    funds_in = b.funds_in + u.funds_in, available = b.available + u.available,
    customer_payout_holds = b.customer_payout_holds + u.holds,
    customer_payouts_settled = b.customer_payouts_settled + u.settled, updated_at = u.at
  FROM (SELECT account_id, environment, from_version::integer, to_version::integer, funds_in::numeric,
               available::numeric, holds::numeric, settled::numeric, at::timestamptz
          FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                      $8::text[], $9::text[])
            AS d(account_id, environment, from_version, to_version, funds_in, available, holds, settled, at)) u
  WHERE b.account_id = u.account_id AND b.environment = u.environment AND b.ledger_version = u.from_version
  RETURNING b.account_id, b.environment`;

const LOCK_BALANCE_SQL = `SELECT ${BALANCE_COLUMNS} FROM payout_balances
  WHERE account_id = $1 AND environment = $2 FOR UPDATE`;

/** A ledger batch the common case can apply: contiguous, and only money movements. */
export interface LedgerDeltas {
  streamId: string;
  accountId: string;
  environment: string;
  fromVersion: number;
  upToVersion: number;
  total: BalanceDeltas;
  at: string;
}

/** The batch's summed deltas, or null when it needs the slow path (a gap, or new limits). */
export function ledgerDeltasOf(streamId: string, batch: readonly ProjectableEvent[]): LedgerDeltas | null {
  const owner = ledgerOwnerFromStreamId(streamId);
  if (!owner) throw new Error(`${streamId} is not a ledger stream id`);
  const events = batch.map((event) => toLedgerEvent(event));
  if (!isContiguous(batch) || !events.every(isMoneyMovement)) return null;
  return {
    streamId,
    accountId: owner.accountId,
    environment: owner.environment,
    fromVersion: batch[0]!.streamVersion,
    upToVersion: batch[batch.length - 1]!.streamVersion,
    total: events.reduce((sum, event) => addDeltas(sum, moneyDeltas(event)), NO_DELTAS),
    at: events[events.length - 1]!.data.at,
  };
}

/** The common case for many ledgers in one statement; returns the stream ids it applied. */
export async function applyLedgerDeltas(
  tx: SqlQueryable,
  batches: readonly LedgerDeltas[],
): Promise<Set<string>> {
  const column = (pick: (batch: LedgerDeltas) => string) => batches.map(pick);
  const applied = await tx.queryPrepared<{ account_id: string; environment: string }>(APPLY_DELTAS_SQL, [
    column((b) => b.accountId),
    column((b) => b.environment),
    column((b) => String(b.fromVersion - 1)),
    column((b) => String(b.upToVersion)),
    column((b) => b.total.fundsIn.toFixed(2)),
    column((b) => b.total.available.toFixed(2)),
    column((b) => b.total.holds.toFixed(2)),
    column((b) => b.total.settled.toFixed(2)),
    column((b) => b.at),
  ]);
  const done = new Set(applied.rows.map((row) => `${row.account_id}\u0000${row.environment}`));
  return new Set(
    batches.filter((b) => done.has(`${b.accountId}\u0000${b.environment}`)).map((b) => b.streamId),
  );
}

export async function projectLedgerStream(
  tx: SqlQueryable,
  streamId: string,
  batch: readonly ProjectableEvent[],
  maxLagEvents?: number,
): Promise<void> {
  const deltas = ledgerDeltasOf(streamId, batch);
  if (deltas && (await applyLedgerDeltas(tx, [deltas])).has(streamId)) return;
  await catchUpLedger(tx, streamId, batch, maxLagEvents);
}

/**
 * The slow path: lock the row (creating it when missing) and apply every event after its version
 * up to the batch's last, read from the stream, in order.
 */
export async function catchUpLedger(
  tx: SqlQueryable,
  streamId: string,
  batch: readonly ProjectableEvent[],
  maxLagEvents?: number,
): Promise<void> {
  const owner = ledgerOwnerFromStreamId(streamId);
  if (!owner) throw new Error(`${streamId} is not a ledger stream id`);
  const fromVersion = batch[0]!.streamVersion;
  const upToVersion = batch[batch.length - 1]!.streamVersion;

  // Create the row at version 0 when it is missing (a no-op when it exists), then lock it: the
  // inline projection and the projector may reach a new ledger at the same moment.
  let locked = await tx.queryPrepared<BalanceRow>(LOCK_BALANCE_SQL, [owner.accountId, owner.environment]);
  if (locked.rows.length === 0) {
    await tx.queryPrepared(
      `INSERT INTO payout_balances (account_id, environment, ledger_version, currency, funds_in, available,
         customer_payout_holds, customer_payouts_settled, merchant_settlement_holds, retained_target, updated_at)
       VALUES ($1, $2, 0, 'USD', 0, 0, 0, 0, 0, 0, $3) ON CONFLICT (account_id, environment) DO NOTHING`,
      [owner.accountId, owner.environment, EPOCH],
    );
    locked = await tx.queryPrepared<BalanceRow>(LOCK_BALANCE_SQL, [owner.accountId, owner.environment]);
  }
  let row: BalanceRow = locked.rows[0] ?? emptyBalance(owner.accountId, owner.environment);
  if (row.ledger_version >= upToVersion) return;
  const lag = fromVersion - 1 - row.ledger_version;
  if (maxLagEvents !== undefined && lag > maxLagEvents) throw new BalanceUnavailableError();

  // Behind, or a batch with limits or a gap: apply every event after the row's version in order.
  const pending = await tx.queryPrepared<{
    stream_version: number;
    event_type: string;
    schema_version: number;
    data: unknown;
  }>(
    `SELECT stream_version, event_type, schema_version, data FROM events
      WHERE stream_id = $1 AND stream_version > $2 AND stream_version <= $3 ORDER BY stream_version`,
    [streamId, row.ledger_version, upToVersion],
  );
  for (const event of pending.rows) {
    const ledgerEvent = toLedgerEvent({
      type: event.event_type,
      schemaVersion: event.schema_version,
      data: event.data,
    });
    row = applyLedgerEvent(row, ledgerEvent, event.stream_version);
  }
  await saveBalance(tx, row);
}

async function saveBalance(tx: SqlQueryable, row: BalanceRow): Promise<void> {
  const values = [
    row.account_id,
    row.environment,
    row.ledger_version,
    row.currency,
    row.funds_in,
    row.available,
    row.customer_payout_holds,
    row.customer_payouts_settled,
    row.merchant_settlement_holds,
    row.retained_target,
    row.fee_per_payout,
    row.min_payout,
    row.max_payout,
    row.max_open_exposure,
    row.max_pending_per_customer,
    row.updated_at,
  ];
  await tx.queryPrepared(
    `UPDATE payout_balances SET ledger_version = $3, currency = $4, funds_in = $5, available = $6,
       customer_payout_holds = $7, customer_payouts_settled = $8, merchant_settlement_holds = $9,
       retained_target = $10, fee_per_payout = $11, min_payout = $12, max_payout = $13, max_open_exposure = $14,
       max_pending_per_customer = $15, updated_at = $16
     WHERE account_id = $1 AND environment = $2`,
    values,
  );
}
