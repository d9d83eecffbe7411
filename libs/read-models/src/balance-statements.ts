/**
 * The statements of the balance projection (balance.projection.ts) besides the batch's own
 * (ledger-batch-statements.ts): the row lock of a ledger that is not where its batch starts, and
 * the INSERT of transaction rows. Money travels as text and is added in numeric, so no figure is
 * ever a binary float.
 */

/** The updated_at of a row created before any event moved it. */
export const EPOCH = '1970-01-01T00:00:00.000Z';

export const LOCK_BALANCE_SQL = `SELECT ledger_version FROM payout_balances
  WHERE account_id = $1 AND environment = $2 AND currency = $3 FOR UPDATE`;

export const CREATE_BALANCE_SQL = `INSERT INTO payout_balances (account_id, environment, currency, ledger_version,
    funds_in, available, customer_payout_holds, customer_payouts_settled, merchant_settlement_holds,
    retained_target, updated_at)
  VALUES ($1, $2, $3, 0, 0, 0, 0, 0, 0, 0, $4) ON CONFLICT (account_id, environment, currency) DO NOTHING`;

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
 * The INSERT of transaction rows from parameter arrays starting at `$first`, inside the statement
 * that moves the balance rows (`moved m`): the r_ arrays hold what the rows after each in its
 * batch still add, subtracted from the moved row to give the balances right after it. A released
 * payout without its amount and fee takes them from its reservation's row.
 */
export function insertTransactions(first: number): string {
  const arrays = TRANSACTION_FIELDS.map((_, i) => `$${first + i}::text[]`).join(', ');
  const figure = (column: string, array: string) => `m.${column} - t.${array}::numeric`;
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
    JOIN moved m ON m.account_id = t.account_id AND m.environment = t.environment AND m.currency = t.currency
    LEFT JOIN LATERAL (SELECT r.amount, r.fee FROM balance_transactions r
       WHERE t.amount IS NULL AND r.payout_id = t.payout_id AND r.type = 'payout_reserved' LIMIT 1) r ON true
    ON CONFLICT (id) DO NOTHING`;
}
