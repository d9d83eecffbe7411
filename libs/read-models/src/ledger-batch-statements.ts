import { insertTransactions, TRANSACTION_FIELDS } from './balance-statements';

/**
 * The fast path's statements (ledger-batch.ts says what a batch holds): any number of ledgers in
 * one statement, each applied only where its balance row is exactly at the version before its
 * batch. A row that is not there is left alone, not returned, and nothing else of its batch is
 * written: the slow path then brings it (and its rows) up to date. Every write of the statement
 * joins the moved rows, so a batch is written whole or not at all, and its changes see the table
 * as it was before the statement (never the rows it inserts, which already carry them).
 */

/** The deltas' parameter arrays of both statements, in this order. */
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

/** Changes to rows of earlier batches: kind mature (ref an order id), cover or settle (ref a settlement id). */
export const CHANGE_FIELDS = [
  'account_id',
  'environment',
  'currency',
  'kind',
  'ref',
  'version',
  'status',
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

const arrays = (fields: readonly string[], first: number) =>
  `unnest(${fields.map((_, i) => `$${first + i}::text[]`).join(', ')})`;
const sameLedger = (a: string, b: string) =>
  `${a}.account_id = ${b}.account_id AND ${a}.environment = ${b}.environment AND ${a}.currency = ${b}.currency`;

const MOVED_RETURNING = `RETURNING b.account_id, b.environment, b.currency, b.pending, b.available,
      b.customer_payout_holds, b.merchant_settlement_holds`;

/**
 * Batches of append-only movements only (a command's append, mostly): the summed deltas added in
 * numeric and the rows inserted, with their running balances counted back from the moved row.
 */
export const APPLY_DELTAS_SQL = `WITH u AS (
    SELECT account_id, environment, currency, from_version::integer, to_version::integer, funds_in::numeric,
           available::numeric, holds::numeric, settled::numeric, pending::numeric, gross::numeric,
           fees::numeric, credits::numeric, at::timestamptz
      FROM ${arrays(DELTA_FIELDS, 1)} AS d(${DELTA_FIELDS.join(', ')})),
  moved AS (
    UPDATE payout_balances b SET ledger_version = u.to_version,
        funds_in = b.funds_in + u.funds_in, available = b.available + u.available,
        customer_payout_holds = b.customer_payout_holds + u.holds,
        customer_payouts_settled = b.customer_payouts_settled + u.settled, pending = b.pending + u.pending,
        gross_proceeds = b.gross_proceeds + u.gross, processing_fees = b.processing_fees + u.fees,
        operator_credits = b.operator_credits + u.credits, updated_at = u.at
      FROM u
     WHERE ${sameLedger('b', 'u')} AND b.ledger_version = u.from_version
    ${MOVED_RETURNING}),
  written AS (${insertTransactions(DELTA_FIELDS.length + 1, 'before-end')})
  SELECT account_id, environment, currency FROM moved`;

const ALL_DELTAS = [...DELTA_FIELDS, ...MORE_DELTA_FIELDS];
const CHANGES_AT = ALL_DELTAS.length + TRANSACTION_FIELDS.length + 1;
const STARTED_AT = CHANGES_AT + CHANGE_FIELDS.length;
const OUTCOMES_AT = STARTED_AT + STARTED_FIELDS.length;

/** A limits column: the batch's last LedgerLimitsSet sets all five, as the slow path's row does. */
const limit = (column: string, cast: string) =>
  `${column} = CASE WHEN u.limits_set THEN u.${column}::${cast} ELSE b.${column} END`;

/**
 * Any batch without a gap. Changes to earlier rows, as the slow path's one statement per change
 * does them in ledger order (changeStatement): a matured order's pending rows become available; a
 * settlement's start covers every row of its ledger that is not pending and not yet covered at
 * that version, so a row pending before the batch is taken by the first start after its order
 * matured, and one that was not pending by the batch's first start; a settlement's outcome sets
 * its row's status (the last outcome of the batch). These sets of rows do not overlap (pending /
 * not pending and uncovered / a covered settlement row), so each row is updated once.
 */
export const APPLY_LEDGER_BATCHES_SQL = `WITH u AS (
    SELECT account_id, environment, currency, from_version::integer, to_version::integer, funds_in::numeric,
           available::numeric, holds::numeric, settled::numeric, pending::numeric, gross::numeric,
           fees::numeric, credits::numeric, at::timestamptz, settlement_holds::numeric, matured::numeric,
           settlements_paid::numeric, retained_target::numeric, limits_set::boolean, fee_per_payout,
           min_payout, max_payout, max_open_exposure, max_pending_per_customer
      FROM ${arrays(ALL_DELTAS, 1)} AS d(${ALL_DELTAS.join(', ')})),
  moved AS (
    UPDATE payout_balances b SET ledger_version = u.to_version,
        funds_in = b.funds_in + u.funds_in, available = b.available + u.available,
        customer_payout_holds = b.customer_payout_holds + u.holds,
        customer_payouts_settled = b.customer_payouts_settled + u.settled, pending = b.pending + u.pending,
        gross_proceeds = b.gross_proceeds + u.gross, processing_fees = b.processing_fees + u.fees,
        operator_credits = b.operator_credits + u.credits,
        merchant_settlement_holds = b.merchant_settlement_holds + u.settlement_holds,
        matured_proceeds = b.matured_proceeds + u.matured, settlements_paid = b.settlements_paid + u.settlements_paid,
        retained_target = coalesce(u.retained_target, b.retained_target),
        ${limit('fee_per_payout', 'numeric')}, ${limit('min_payout', 'numeric')},
        ${limit('max_payout', 'numeric')}, ${limit('max_open_exposure', 'numeric')},
        ${limit('max_pending_per_customer', 'integer')}, updated_at = u.at
      FROM u
     WHERE ${sameLedger('b', 'u')} AND b.ledger_version = u.from_version
    ${MOVED_RETURNING}),
  written AS (${insertTransactions(ALL_DELTAS.length + 1, 'before-end')}),
  c AS (
    SELECT account_id, environment, currency, kind, ref, version::integer, status
      FROM ${arrays(CHANGE_FIELDS, CHANGES_AT)} AS c(${CHANGE_FIELDS.join(', ')})),
  matures AS (
    SELECT account_id, environment, currency, ref::bigint AS order_id, min(version) AS version
      FROM c WHERE kind = 'mature' GROUP BY account_id, environment, currency, ref),
  covers AS (SELECT account_id, environment, currency, ref AS settlement_id, version FROM c WHERE kind = 'cover'),
  settles AS (
    SELECT DISTINCT ON (account_id, environment, currency, ref) account_id, environment, currency,
           ref AS settlement_id, status
      FROM c WHERE kind = 'settle' ORDER BY account_id, environment, currency, ref, version DESC),
  reached AS (
    SELECT t.id, t.account_id, t.environment, t.currency, 'available' AS status, x.version AS open_from
      FROM matures x JOIN balance_transactions t ON t.order_id = x.order_id AND ${sameLedger('t', 'x')}
     WHERE t.status = 'pending' AND t.type IN ('payment', 'payment_fee')
    UNION ALL
    SELECT t.id, t.account_id, t.environment, t.currency, t.status, 0
      FROM (SELECT DISTINCT account_id, environment, currency FROM covers) x
      JOIN balance_transactions t ON ${sameLedger('t', 'x')}
     WHERE t.included_in_settlement IS NULL AND t.status <> 'pending'
    UNION ALL
    SELECT t.id, t.account_id, t.environment, t.currency, x.status, NULL
      FROM settles x JOIN balance_transactions t ON t.included_in_settlement = x.settlement_id
       AND t.settlement_id = x.settlement_id AND ${sameLedger('t', 'x')}
     WHERE t.type = 'settlement'),
  changed AS (
    UPDATE balance_transactions t SET status = r.status,
        included_in_settlement = coalesce(t.included_in_settlement,
          (SELECT v.settlement_id FROM covers v
            WHERE ${sameLedger('v', 'r')} AND v.version > r.open_from ORDER BY v.version LIMIT 1))
      FROM reached r JOIN moved m ON ${sameLedger('m', 'r')}
     WHERE t.id = r.id),
  started AS (
    INSERT INTO settlements (${STARTED_FIELDS.join(', ')})
    SELECT s.id, s.account_id, s.environment, s.currency, s.ledger_version::integer, s.amount::numeric, s.status,
           s.failure_reason, s.trigger, s.retained_target::numeric, s.created_at::timestamptz,
           s.paid_at::timestamptz, s.failed_at::timestamptz
      FROM ${arrays(STARTED_FIELDS, STARTED_AT)} AS s(${STARTED_FIELDS.join(', ')})
      JOIN moved m ON ${sameLedger('m', 's')}
    ON CONFLICT (id) DO NOTHING),
  outcomes AS (
    UPDATE settlements s SET status = o.status, paid_at = coalesce(o.paid_at::timestamptz, s.paid_at),
        failure_reason = coalesce(o.failure_reason, s.failure_reason),
        failed_at = coalesce(o.failed_at::timestamptz, s.failed_at)
      FROM ${arrays(OUTCOME_FIELDS, OUTCOMES_AT)} AS o(${OUTCOME_FIELDS.join(', ')})
      JOIN moved m ON ${sameLedger('m', 'o')}
     WHERE s.id = o.id AND ${sameLedger('s', 'o')})
  SELECT account_id, environment, currency FROM moved`;
