import { insertTransactions } from './balance-statements';

/**
 * The balance projection's statements (ledger-batch.ts says what a batch holds), for any number of
 * ledgers. The first moves each balance row that is exactly at the version before its batch, and
 * inserts the batch's rows; a row that is not there is left alone, not returned, and gets no rows:
 * catchUpLedger then locks it and comes back with the run from its version. The second, for the
 * ledgers the first moved (whose rows it holds locked until the transaction ends), changes their
 * earlier rows and writes their settlements. Two statements rather than one: a join of the moved rows with the rows to
 * change is planned on estimates of a row or ten, a nested loop that took seconds per batch.
 */

/** The summed movements' parameter arrays of both statements, in this order. */
export const DELTA_FIELDS = [
  'account_id',
  'environment',
  'currency',
  'from_version',
  'to_version',
  'funds_in',
  'available',
  'holds',
  'settled',
  'pending',
  'gross',
  'fees',
  'credits',
  'at',
] as const;

/** More deltas of the full statement: what maturing, settlements, targets and limits move. */
export const MORE_DELTA_FIELDS = [
  'settlement_holds',
  'matured',
  'settlements_paid',
  'retained_target',
  'limits_set',
  'fee_per_payout',
  'min_payout',
  'max_payout',
  'max_open_exposure',
  'max_pending_per_customer',
] as const;

export const STARTED_FIELDS = [
  'id',
  'account_id',
  'environment',
  'currency',
  'ledger_version',
  'amount',
  'status',
  'failure_reason',
  'trigger',
  'retained_target',
  'created_at',
  'paid_at',
  'failed_at',
] as const;

export const OUTCOME_FIELDS = [
  'id',
  'account_id',
  'environment',
  'currency',
  'status',
  'paid_at',
  'failure_reason',
  'failed_at',
] as const;

export const MATURED_FIELDS = [
  'account_id',
  'environment',
  'currency',
  'from_version',
  'order_id',
  'covered_by',
] as const;
export const COVERED_FIELDS = [
  'account_id',
  'environment',
  'currency',
  'from_version',
  'covered_by',
] as const;
export const SETTLED_FIELDS = [
  'account_id',
  'environment',
  'currency',
  'from_version',
  'settlement_id',
  'status',
] as const;

const arrays = (fields: readonly string[], first: number) =>
  `unnest(${fields.map((_, i) => `$${first + i}::text[]`).join(', ')}) AS x(${fields.join(', ')})`;
const sameLedger = (a: string, b: string) =>
  `${a}.account_id = ${b}.account_id AND ${a}.environment = ${b}.environment AND ${a}.currency = ${b}.currency`;

/** Moves the balance row (u's deltas, m the moved row) and inserts the rows; `more` adds set clauses. */
function moveStatement(fields: readonly string[], columns: string, more: string): string {
  return `WITH u AS (SELECT ${columns} FROM ${arrays(fields, 1)}),
  moved AS (
    UPDATE payout_balances b SET ledger_version = u.to_version,
        funds_in = b.funds_in + u.funds_in, available = b.available + u.available,
        customer_payout_holds = b.customer_payout_holds + u.holds,
        customer_payouts_settled = b.customer_payouts_settled + u.settled, pending = b.pending + u.pending,
        gross_proceeds = b.gross_proceeds + u.gross, processing_fees = b.processing_fees + u.fees,
        operator_credits = b.operator_credits + u.credits,${more} updated_at = u.at
      FROM u
     WHERE ${sameLedger('b', 'u')} AND b.ledger_version = u.from_version
    RETURNING b.account_id, b.environment, b.currency, b.pending, b.available, b.customer_payout_holds,
              b.merchant_settlement_holds),
  written AS (${insertTransactions(fields.length + 1)})
  SELECT account_id, environment, currency FROM moved`;
}

const DELTA_COLUMNS = `account_id, environment, currency, from_version::integer, to_version::integer,
    funds_in::numeric, available::numeric, holds::numeric, settled::numeric, pending::numeric, gross::numeric,
    fees::numeric, credits::numeric, at::timestamptz`;

/** Batches of append-only movements only (a command's append, mostly): deltas and rows. */
export const APPLY_DELTAS_SQL = moveStatement(DELTA_FIELDS, DELTA_COLUMNS, '');

/** A limits column: the batch's last LedgerLimitsSet sets all five. */
const limit = (column: string, cast: string) =>
  `${column} = CASE WHEN u.limits_set THEN u.${column}::${cast} ELSE b.${column} END`;

/** Any batch without a gap: its deltas (maturing and settlements too), target, limits and rows. */
export const MOVE_LEDGERS_SQL = moveStatement(
  [...DELTA_FIELDS, ...MORE_DELTA_FIELDS],
  `${DELTA_COLUMNS}, settlement_holds::numeric, matured::numeric, settlements_paid::numeric,
    retained_target::numeric, limits_set::boolean, fee_per_payout, min_payout, max_payout, max_open_exposure,
    max_pending_per_customer`,
  `
        merchant_settlement_holds = b.merchant_settlement_holds + u.settlement_holds,
        matured_proceeds = b.matured_proceeds + u.matured, settlements_paid = b.settlements_paid + u.settlements_paid,
        retained_target = coalesce(u.retained_target, b.retained_target),
        ${limit('fee_per_payout', 'numeric')}, ${limit('min_payout', 'numeric')},
        ${limit('max_payout', 'numeric')}, ${limit('max_open_exposure', 'numeric')},
        ${limit('max_pending_per_customer', 'integer')},`,
);

const MATURED_AT = 1;
const COVERED_AT = MATURED_AT + MATURED_FIELDS.length;
const SETTLED_AT = COVERED_AT + COVERED_FIELDS.length;
const STARTED_AT = SETTLED_AT + SETTLED_FIELDS.length;
const OUTCOMES_AT = STARTED_AT + STARTED_FIELDS.length;
/** Rows of earlier batches only: the batch's own rows were written as the batch leaves them. */
const EARLIER = 't.ledger_version < x.from_version::integer';

/**
 * The moved ledgers' changes to their earlier rows and their settlements (EarlierRowChanges): a
 * matured order's pending rows become available, covered by the start after the maturing if any;
 * every other row not pending and not covered is covered by the batch's first start; a settlement
 * row gets its settlement's last outcome. The three sets of rows do not overlap (pending; not
 * pending and uncovered; a covered settlement row), so each row is updated once, by its key.
 */
export const APPLY_CHANGES_SQL = `WITH changed AS (
    UPDATE balance_transactions t SET status = r.status,
        included_in_settlement = coalesce(t.included_in_settlement, r.covered_by)
      FROM (
        SELECT t.id, 'available' AS status, x.covered_by
          FROM ${arrays(MATURED_FIELDS, MATURED_AT)}
          JOIN balance_transactions t ON t.order_id = x.order_id::bigint AND ${sameLedger('t', 'x')}
         WHERE t.status = 'pending' AND t.type IN ('payment', 'payment_fee') AND ${EARLIER}
        UNION ALL
        SELECT t.id, t.status, x.covered_by
          FROM ${arrays(COVERED_FIELDS, COVERED_AT)}
          JOIN balance_transactions t ON ${sameLedger('t', 'x')}
         WHERE t.included_in_settlement IS NULL AND t.status <> 'pending' AND ${EARLIER}
        UNION ALL
        SELECT t.id, x.status, NULL
          FROM ${arrays(SETTLED_FIELDS, SETTLED_AT)}
          JOIN balance_transactions t ON t.included_in_settlement = x.settlement_id
           AND t.settlement_id = x.settlement_id AND ${sameLedger('t', 'x')}
         WHERE t.type = 'settlement' AND ${EARLIER}) r
     WHERE t.id = r.id),
  started AS (
    INSERT INTO settlements (${STARTED_FIELDS.join(', ')})
    SELECT x.id, x.account_id, x.environment, x.currency, x.ledger_version::integer, x.amount::numeric, x.status,
           x.failure_reason, x.trigger, x.retained_target::numeric, x.created_at::timestamptz,
           x.paid_at::timestamptz, x.failed_at::timestamptz
      FROM ${arrays(STARTED_FIELDS, STARTED_AT)}
    ON CONFLICT (id) DO NOTHING)
  UPDATE settlements s SET status = x.status, paid_at = coalesce(x.paid_at::timestamptz, s.paid_at),
      failure_reason = coalesce(x.failure_reason, s.failure_reason),
      failed_at = coalesce(x.failed_at::timestamptz, s.failed_at)
    FROM ${arrays(OUTCOME_FIELDS, OUTCOMES_AT)}
   WHERE s.id = x.id AND ${sameLedger('s', 'x')}`;
