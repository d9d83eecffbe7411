import Big from 'big.js';
import { SqlQueryable } from '@payouts/database';
import { LEDGER_EVENT_SCHEMA_VERSIONS, LedgerEvent } from '@payouts/domain';

/**
 * The balance read model: one row per ledger (account + environment) with running totals.
 * Totals move by exact decimal deltas (big.js), one ledger event at a time and strictly in
 * stream order: the row remembers the ledger version it reflects, and any events between that
 * version and `upToVersion` are read and applied in the same transaction. A replay of an already
 * applied event therefore changes nothing, and a row that is behind heals itself.
 */
export interface BalanceRow {
  account_id: string;
  environment: string;
  ledger_version: number;
  currency: string;
  funds_in: string;
  available: string;
  customer_payout_holds: string;
  customer_payouts_settled: string;
  merchant_settlement_holds: string;
  retained_target: string;
  fee_per_payout: string | null;
  min_payout: string | null;
  max_payout: string | null;
  max_open_exposure: string | null;
  max_pending_per_customer: number | null;
  updated_at: string;
}

const BALANCE_COLUMNS = `account_id, environment, ledger_version, currency, funds_in::text, available::text,
  customer_payout_holds::text, customer_payouts_settled::text, merchant_settlement_holds::text,
  retained_target::text, fee_per_payout::text, min_payout::text, max_payout::text, max_open_exposure::text,
  max_pending_per_customer, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

export async function projectLedgerStream(
  tx: SqlQueryable,
  streamId: string,
  upToVersion: number,
): Promise<void> {
  const first = await tx.query<{ data: { accountId: string; environment: string } }>(
    'SELECT data FROM events WHERE stream_id = $1 AND stream_version = 1',
    [streamId],
  );
  const opening = first.rows[0];
  if (!opening) return;
  // Create the row at version 0 first (a no-op when it exists), then lock it: the inline
  // projection and the projector may reach a new ledger at the same moment.
  const empty = emptyBalance(opening.data.accountId, opening.data.environment);
  await tx.query(
    `INSERT INTO payout_balances (account_id, environment, ledger_version, currency, funds_in, available,
       customer_payout_holds, customer_payouts_settled, merchant_settlement_holds, retained_target, updated_at)
     VALUES ($1, $2, 0, 'USD', 0, 0, 0, 0, 0, 0, $3) ON CONFLICT (account_id, environment) DO NOTHING`,
    [empty.account_id, empty.environment, empty.updated_at],
  );
  const locked = await tx.query<BalanceRow>(
    `SELECT ${BALANCE_COLUMNS} FROM payout_balances WHERE account_id = $1 AND environment = $2 FOR UPDATE`,
    [empty.account_id, empty.environment],
  );
  let row: BalanceRow = locked.rows[0] ?? empty;
  if (row.ledger_version >= upToVersion) return;

  const pending = await tx.query<{
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
    row = applyLedgerEvent(row, toLedgerEvent(event), event.stream_version);
  }
  await saveBalance(tx, row);
}

function toLedgerEvent(row: { event_type: string; schema_version: number; data: unknown }): LedgerEvent {
  const known = LEDGER_EVENT_SCHEMA_VERSIONS[row.event_type as LedgerEvent['type']];
  if (known === undefined) throw new Error(`unknown ledger event type ${row.event_type}`);
  if (row.schema_version !== known) {
    throw new Error(
      `ledger event ${row.event_type} has schema version ${row.schema_version}; this build reads ${known}`,
    );
  }
  return { type: row.event_type, data: row.data } as LedgerEvent;
}

function emptyBalance(accountId: string, environment: string): BalanceRow {
  return {
    account_id: accountId,
    environment,
    ledger_version: 0,
    currency: 'USD',
    funds_in: '0.00',
    available: '0.00',
    customer_payout_holds: '0.00',
    customer_payouts_settled: '0.00',
    merchant_settlement_holds: '0.00',
    retained_target: '0.00',
    fee_per_payout: null,
    min_payout: null,
    max_payout: null,
    max_open_exposure: null,
    max_pending_per_customer: null,
    updated_at: '1970-01-01T00:00:00.000Z',
  };
}

const add = (a: string, b: string): string => new Big(a).plus(new Big(b)).toFixed(2);
const sub = (a: string, b: string): string => new Big(a).minus(new Big(b)).toFixed(2);

/** Pure: the balance after one more ledger event. */
export function applyLedgerEvent(row: BalanceRow, event: LedgerEvent, version: number): BalanceRow {
  const next: BalanceRow = { ...row, ledger_version: version };
  switch (event.type) {
    case 'LedgerLimitsSet': {
      const limits = event.data.limits;
      return {
        ...next,
        fee_per_payout: limits.feePerPayout,
        min_payout: limits.minPayout,
        max_payout: limits.maxPayout,
        max_open_exposure: limits.maxOpenExposure,
        max_pending_per_customer: limits.maxPendingPerCustomer,
        updated_at: event.data.at,
      };
    }
    case 'FundsCredited':
      return {
        ...next,
        funds_in: add(row.funds_in, event.data.amount),
        available: add(row.available, event.data.amount),
        updated_at: event.data.at,
      };
    case 'PayoutFundsReserved':
      return {
        ...next,
        available: sub(row.available, event.data.total),
        customer_payout_holds: add(row.customer_payout_holds, event.data.total),
        updated_at: event.data.at,
      };
    case 'PayoutFundsReleased':
      return {
        ...next,
        available: add(row.available, event.data.total),
        customer_payout_holds: sub(row.customer_payout_holds, event.data.total),
        updated_at: event.data.at,
      };
    case 'PayoutFundsSettled':
      return {
        ...next,
        customer_payout_holds: sub(row.customer_payout_holds, event.data.total),
        customer_payouts_settled: add(row.customer_payouts_settled, event.data.total),
        updated_at: event.data.at,
      };
    default: {
      const _never: never = event;
      return _never;
    }
  }
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
  await tx.query(
    `UPDATE payout_balances SET ledger_version = $3, currency = $4, funds_in = $5, available = $6,
       customer_payout_holds = $7, customer_payouts_settled = $8, merchant_settlement_holds = $9,
       retained_target = $10, fee_per_payout = $11, min_payout = $12, max_payout = $13, max_open_exposure = $14,
       max_pending_per_customer = $15, updated_at = $16
     WHERE account_id = $1 AND environment = $2`,
    values,
  );
}
