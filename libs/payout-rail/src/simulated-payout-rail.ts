import { randomBytes } from 'node:crypto';
import type { SqlClient } from '@payouts/database';
import {
  Environment,
  formatMoney,
  parseMoney,
  parseStoredMoney,
  RECEIPT_PREFIX,
  RECEIVING_METHODS,
  simulatedRailOutcome,
  SimulatedRailOutcome,
} from '@payouts/domain';
import type { Clock } from '@payouts/clock';
import {
  PayoutRail,
  RailRequestError,
  RailTransfer,
  RailTransferRequest,
  RailTransferStatus,
} from './payout-rail.port';

/** Tiger style: a bound on how long a simulated transfer may take (ten minutes). */
export const MAX_RAIL_SIMULATOR_DELAY_MS = 600_000;

interface TransferRow {
  transfer_id: string;
  environment: Environment;
  amount: string;
  status: RailTransferStatus;
  receipt_reference: string;
  failure_reason: string | null;
}

const COLUMNS = 'transfer_id, environment, amount::text AS amount, status, receipt_reference, failure_reason';

const INSERT_SQL = `INSERT INTO rail_simulator_transfers
    (transfer_id, environment, amount, currency, method, outcome, status, receipt_reference, created_at, settles_at)
  VALUES ($1, $2, $3, 'USD', $4, $5, 'pending', $6, $7, $8)
  ON CONFLICT (transfer_id) DO NOTHING`;

/** A pending transfer whose time has come reaches its outcome; only one caller can make that move. */
const SETTLE_SQL = `UPDATE rail_simulator_transfers
  SET status = CASE outcome WHEN 'paid' THEN 'paid' WHEN 'failed' THEN 'failed' ELSE 'held' END,
      failure_reason = CASE outcome WHEN 'failed' THEN 'declined_by_rail' ELSE NULL END,
      completed_at = CASE outcome WHEN 'review_required' THEN NULL ELSE $2::timestamptz END
  WHERE transfer_id = $1 AND status = 'pending' AND settles_at <= $2`;

const RELEASE_SQL = `UPDATE rail_simulator_transfers
  SET status = 'pending', outcome = 'paid', settles_at = $2
  WHERE transfer_id = $1 AND status = 'held'`;

const CANCEL_SQL = `UPDATE rail_simulator_transfers
  SET status = 'failed', failure_reason = 'review_rejected', completed_at = $2
  WHERE transfer_id = $1 AND status = 'held'`;

/**
 * The built-in payout rail: transfers in its own table (migration 0006), settled after a short
 * configurable delay. In the sandbox the recipient's details choose the outcome by the documented
 * test values (simulatedRailOutcome, docs/sandbox.md); in production every transfer is paid. The
 * delay runs on the environment's clock, so advancing the sandbox clock hurries sandbox transfers.
 */
export class SimulatedPayoutRail implements PayoutRail {
  constructor(
    private readonly db: SqlClient,
    private readonly clock: Clock,
    private readonly delayMs: number,
  ) {
    if (!Number.isSafeInteger(delayMs) || delayMs < 0 || delayMs > MAX_RAIL_SIMULATOR_DELAY_MS) {
      throw new RangeError(`the rail simulator delay must be from 0 to ${MAX_RAIL_SIMULATOR_DELAY_MS} ms`);
    }
  }

  async send(request: RailTransferRequest): Promise<RailTransfer> {
    const amount = formatMoney(parseMoney(request.amount, 'amount'));
    if (request.currency !== 'USD') throw new RailRequestError('the rail pays USD only');
    const method = request.details.method;
    if (!(RECEIVING_METHODS as readonly string[]).includes(method)) {
      throw new RailRequestError(`unknown receiving method ${JSON.stringify(method)}`);
    }
    const now = this.clock.now(request.environment);
    const outcome: SimulatedRailOutcome =
      request.environment === 'sandbox' ? simulatedRailOutcome(request.details) : 'paid';
    await this.db.query(INSERT_SQL, [
      request.transferId,
      request.environment,
      amount,
      method,
      outcome,
      newReceipt(),
      now.toISOString(),
      new Date(now.getTime() + this.delayMs).toISOString(),
    ]);
    const row = await this.existingRow(request.transferId);
    // The same id with other money is a caller's bug; answering the old transfer would hide it.
    if (
      row.environment !== request.environment ||
      !parseStoredMoney(row.amount).eq(parseStoredMoney(amount))
    ) {
      throw new RailRequestError(
        `transfer ${request.transferId} was already sent with another amount or environment`,
      );
    }
    return (await this.get(request.transferId))!;
  }

  async get(transferId: string): Promise<RailTransfer | null> {
    const row = await this.row(transferId);
    if (row === null) return null;
    if (row.status === 'pending') {
      await this.db.query(SETTLE_SQL, [transferId, this.clock.now(row.environment).toISOString()]);
      const settled = await this.row(transferId);
      return settled === null ? null : toTransfer(settled);
    }
    return toTransfer(row);
  }

  async releaseHold(transferId: string): Promise<RailTransfer> {
    const row = await this.existingRow(transferId);
    const now = this.clock.now(row.environment);
    await this.db.query(RELEASE_SQL, [transferId, new Date(now.getTime() + this.delayMs).toISOString()]);
    const transfer = await this.get(transferId);
    if (transfer?.status === 'failed') {
      throw new RailRequestError(`transfer ${transferId} was cancelled; it cannot be released`);
    }
    return transfer!;
  }

  async cancelHold(transferId: string): Promise<RailTransfer> {
    const row = await this.existingRow(transferId);
    await this.db.query(CANCEL_SQL, [transferId, this.clock.now(row.environment).toISOString()]);
    const transfer = await this.get(transferId);
    // Money already on its way (released, or paid) cannot be called back by a cancel.
    if (transfer?.status !== 'failed') {
      throw new RailRequestError(
        `transfer ${transferId} is ${transfer?.status}; only a held transfer can be cancelled`,
      );
    }
    return transfer;
  }

  private async row(transferId: string): Promise<TransferRow | null> {
    const { rows } = await this.db.query<TransferRow>(
      `SELECT ${COLUMNS} FROM rail_simulator_transfers WHERE transfer_id = $1`,
      [transferId],
    );
    return rows[0] ?? null;
  }

  /** The row after any settlement that is due, so a hold that has just begun can be released or cancelled. */
  private async existingRow(transferId: string): Promise<TransferRow> {
    await this.get(transferId);
    const row = await this.row(transferId);
    if (row === null) throw new RailRequestError(`transfer ${transferId} was never sent`);
    return row;
  }
}

function toTransfer(row: TransferRow): RailTransfer {
  return {
    transferId: row.transfer_id,
    status: row.status,
    receiptReference: row.status === 'paid' ? row.receipt_reference : null,
    failureReason: row.status === 'failed' ? row.failure_reason : null,
  };
}

/** 96 random bits: receipts are unguessable and never collide. */
function newReceipt(): string {
  return `${RECEIPT_PREFIX}${randomBytes(12).toString('hex')}`;
}
