import { TransactionChange } from './balance-transactions';

/**
 * The statements of the balance projection (balance.projection.ts): the balance row, its balance
 * transactions and settlements, written in the projecting transaction. Money travels as text and
 * is added in numeric, so no figure is ever a binary float.
 */

export const BALANCE_COLUMNS = `account_id, environment, ledger_version, currency, funds_in::text, available::text,
  customer_payout_holds::text, customer_payouts_settled::text, merchant_settlement_holds::text,
  retained_target::text, pending::text, gross_proceeds::text, processing_fees::text, matured_proceeds::text,
  operator_credits::text, settlements_paid::text, fee_per_payout::text, min_payout::text, max_payout::text,
  max_open_exposure::text, max_pending_per_customer,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;

export const LOCK_BALANCE_SQL = `SELECT ${BALANCE_COLUMNS} FROM payout_balances
  WHERE account_id = $1 AND environment = $2 AND currency = $3 FOR UPDATE`;

export const CREATE_BALANCE_SQL = `INSERT INTO payout_balances (account_id, environment, currency, ledger_version,
    funds_in, available, customer_payout_holds, customer_payouts_settled, merchant_settlement_holds,
    retained_target, updated_at)
  VALUES ($1, $2, $3, 0, 0, 0, 0, 0, 0, 0, $4) ON CONFLICT (account_id, environment, currency) DO NOTHING`;

export const SAVE_BALANCE_SQL = `UPDATE payout_balances SET ledger_version = $4, funds_in = $5, available = $6,
    customer_payout_holds = $7, customer_payouts_settled = $8, merchant_settlement_holds = $9,
    retained_target = $10, pending = $11, gross_proceeds = $12, processing_fees = $13, matured_proceeds = $14,
    operator_credits = $15, settlements_paid = $16, fee_per_payout = $17, min_payout = $18, max_payout = $19,
    max_open_exposure = $20, max_pending_per_customer = $21, updated_at = $22
  WHERE account_id = $1 AND environment = $2 AND currency = $3`;

/** The parameter arrays of transaction rows, in this order (transactionArrays builds them). */
export const TRANSACTION_FIELDS = [
  'id',
  'account_id',
  'environment',
  'currency',
  'ledger_version',
  'event_row',
  'type',
  'amount',
  'fee',
  'net',
  'status',
  'available_on',
  'order_id',
  'payout_id',
  'settlement_id',
  'description',
  'r_pending',
  'r_available',
  'r_holds',
  'r_settlement_holds',
  'included',
  'created_at',
] as const;

/**
 * The INSERT of transaction rows from parameter arrays starting at `$first`. `running` says what
 * the r_ arrays hold: the balances after the row (`absolute`), or what the rows after it in the
 * batch still add (`before-end`), subtracted from the moved balance row `m` of the statement.
 * A released payout without its amount and fee takes them from its reservation's row.
 */
export function insertTransactions(first: number, running: 'absolute' | 'before-end'): string {
  const arrays = TRANSACTION_FIELDS.map((_, i) => `$${first + i}::text[]`).join(', ');
  const figure = (column: string, array: string) =>
    running === 'absolute' ? `t.${array}::numeric` : `m.${column} - t.${array}::numeric`;
  return `INSERT INTO balance_transactions (id, account_id, environment, currency, ledger_version, event_row, type, amount,
      fee, net, status, available_on, order_id, payout_id, settlement_id, description, running_pending,
      running_available, running_customer_payout_holds, running_merchant_settlement_holds,
      included_in_settlement, created_at)
    SELECT t.id, t.account_id, t.environment, t.currency, t.ledger_version::integer, t.event_row::integer, t.type,
      coalesce(t.amount::numeric, -r.amount, t.net::numeric), coalesce(t.fee::numeric, -r.fee, 0),
      t.net::numeric, t.status, t.available_on::timestamptz, t.order_id::bigint, t.payout_id, t.settlement_id,
      t.description, ${figure('pending', 'r_pending')}, ${figure('available', 'r_available')},
      ${figure('customer_payout_holds', 'r_holds')},
      ${figure('merchant_settlement_holds', 'r_settlement_holds')}, t.included, t.created_at::timestamptz
    FROM unnest(${arrays}) AS t(${TRANSACTION_FIELDS.join(', ')})
    ${running === 'absolute' ? '' : 'JOIN moved m ON m.account_id = t.account_id AND m.environment = t.environment AND m.currency = t.currency'}
    LEFT JOIN LATERAL (SELECT r.amount, r.fee FROM balance_transactions r
       WHERE t.amount IS NULL AND r.payout_id = t.payout_id AND r.type = 'payout_reserved' LIMIT 1) r ON true
    ON CONFLICT (id) DO NOTHING`;
}

export const INSERT_TRANSACTIONS_SQL = insertTransactions(1, 'absolute');

/** A change to rows written by earlier batches: [sql, params after the ledger's three]. */
export function changeStatement(change: TransactionChange): [string, unknown[]] {
  const ledger = 'account_id = $1 AND environment = $2 AND currency = $3';
  switch (change.kind) {
    case 'mature':
      return [
        `UPDATE balance_transactions SET status = 'available'
          WHERE order_id = $4 AND ${ledger} AND status = 'pending' AND type IN ('payment', 'payment_fee')`,
        [change.orderId],
      ];
    case 'cover':
      return [
        `UPDATE balance_transactions SET included_in_settlement = $4
          WHERE ${ledger} AND included_in_settlement IS NULL AND status <> 'pending'`,
        [change.settlementId],
      ];
    case 'settle':
      // The settlement's own row is covered by it, so the settlement index finds it.
      return [
        `UPDATE balance_transactions SET status = $5
          WHERE included_in_settlement = $4 AND settlement_id = $4 AND type = 'settlement' AND ${ledger}`,
        [change.settlementId, change.status],
      ];
  }
}

export const START_SETTLEMENT_SQL = `INSERT INTO settlements (id, account_id, environment, currency,
    ledger_version, amount, status, failure_reason, trigger, retained_target, created_at, paid_at, failed_at)
  VALUES ($4, $1, $2, $3, $5, $6, 'in_transit', NULL, $7, $8, $9, NULL, NULL) ON CONFLICT (id) DO NOTHING`;

export const PAY_SETTLEMENT_SQL = `UPDATE settlements SET status = 'paid', paid_at = $5
  WHERE id = $4 AND account_id = $1 AND environment = $2 AND currency = $3`;

export const FAIL_SETTLEMENT_SQL = `UPDATE settlements SET status = 'failed', failure_reason = $5, failed_at = $6
  WHERE id = $4 AND account_id = $1 AND environment = $2 AND currency = $3`;
