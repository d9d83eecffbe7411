import type { Environment } from '@payouts/domain';
import type { BalanceTransactionView, SettlementView } from '@payouts/read-models';
import type { FundsQueries, SettlementFilters, TransactionFilters } from '../funds-queries';
import { CsvColumn, csvHeader, csvRow } from './csv-text';

/**
 * The Balance page's `Download CSV`: every row of the list's current filter, not just the page on
 * screen. The rows come from FundsQueries, page after page, exactly as GET
 * /api/balance/transactions and GET /api/settlements answer them, so the export cannot disagree
 * with the API about what a filter means or how a figure is written: money is the API's
 * two-decimal strings and times its UTC ISO 8601 instants. Cells are RFC 4180 with formula
 * injection neutralized (csv-text.ts).
 */

/** The API's largest page: one export costs the database what a client paging the API would. */
export const CSV_PAGE_SIZE = 200;

export type TransactionsCsvFilters = Omit<TransactionFilters, 'limit' | 'offset'>;
export type SettlementsCsvFilters = Omit<SettlementFilters, 'limit' | 'offset'>;

/** The API's fields in its order; the running balances, one object there, are four columns here. */
export const BALANCE_TRANSACTION_CSV_COLUMNS: readonly CsvColumn<BalanceTransactionView>[] = [
  { header: 'id', cell: (r) => r.id },
  { header: 'type', cell: (r) => r.type },
  { header: 'currency', cell: (r) => r.currency },
  { header: 'amount', cell: (r) => r.amount },
  { header: 'fee', cell: (r) => r.fee },
  { header: 'net', cell: (r) => r.net },
  { header: 'status', cell: (r) => r.status },
  { header: 'available_on', cell: (r) => r.available_on },
  { header: 'order_id', cell: (r) => r.order_id },
  { header: 'payout_id', cell: (r) => r.payout_id },
  { header: 'settlement_id', cell: (r) => r.settlement_id },
  { header: 'included_in_settlement', cell: (r) => r.included_in_settlement },
  { header: 'description', cell: (r) => r.description },
  { header: 'created_at', cell: (r) => r.created_at },
  { header: 'running_pending', cell: (r) => r.running_balances.pending },
  { header: 'running_available', cell: (r) => r.running_balances.available },
  { header: 'running_customer_payout_holds', cell: (r) => r.running_balances.customer_payout_holds },
  { header: 'running_merchant_settlement_holds', cell: (r) => r.running_balances.merchant_settlement_holds },
];

export const SETTLEMENT_CSV_COLUMNS: readonly CsvColumn<SettlementView>[] = [
  { header: 'id', cell: (r) => r.id },
  { header: 'currency', cell: (r) => r.currency },
  { header: 'amount', cell: (r) => r.amount },
  { header: 'status', cell: (r) => r.status },
  { header: 'failure_reason', cell: (r) => r.failure_reason },
  { header: 'trigger', cell: (r) => r.trigger },
  { header: 'retained_target', cell: (r) => r.retained_target },
  { header: 'created_at', cell: (r) => r.created_at },
  { header: 'paid_at', cell: (r) => r.paid_at },
  { header: 'failed_at', cell: (r) => r.failed_at },
];

type Page<Row> = (limit: number, offset: number) => Promise<{ data: Row[] }>;

/**
 * Every row of a list, newest first, one page at a time. Rows are never deleted and their order
 * (created_at, ledger version, row, id) never changes, so a row added while the export runs can
 * only push later rows one place on: the next page then starts with rows already written, and
 * the ids seen are skipped; nothing is missed. The end is the first short page, not the first
 * page's `total`, which rows added meanwhile would make stale.
 */
async function* everyRow<Row extends { id: string }>(
  page: Page<Row>,
  pageSize: number,
): AsyncGenerator<Row[]> {
  const seen = new Set<string>();
  for (let offset = 0; ; offset += pageSize) {
    const { data } = await page(pageSize, offset);
    const fresh = data.filter((row) => !seen.has(row.id));
    for (const row of fresh) seen.add(row.id);
    if (fresh.length > 0) yield fresh;
    if (data.length < pageSize) return;
  }
}

async function* csvOf<Row extends { id: string }>(
  columns: readonly CsvColumn<Row>[],
  page: Page<Row>,
  pageSize: number,
): AsyncGenerator<string> {
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be a whole number ≥ 1, not ${pageSize}`);
  yield csvHeader(columns);
  for await (const rows of everyRow(page, pageSize)) yield rows.map((row) => csvRow(columns, row)).join('');
}

/**
 * The balance transactions of the filter (type, currency, since, until, settlement_id: the list's
 * own, parsed by the route's parseTransactionsQuery) as CSV chunks: the header, then one chunk a
 * page. A route can stream it (`Readable.from(...)`) so a year of rows never sits in memory as
 * one string; `pageSize` is for tests.
 */
export function balanceTransactionsCsv(
  queries: FundsQueries,
  accountId: string,
  environment: Environment,
  filters: TransactionsCsvFilters,
  pageSize = CSV_PAGE_SIZE,
): AsyncGenerator<string> {
  return csvOf(
    BALANCE_TRANSACTION_CSV_COLUMNS,
    (limit, offset) => queries.transactions(accountId, environment, { ...filters, limit, offset }),
    pageSize,
  );
}

/** The settlements of the filter (status, currency: the list's own) as CSV chunks. */
export function settlementsCsv(
  queries: FundsQueries,
  accountId: string,
  environment: Environment,
  filters: SettlementsCsvFilters,
  pageSize = CSV_PAGE_SIZE,
): AsyncGenerator<string> {
  return csvOf(
    SETTLEMENT_CSV_COLUMNS,
    (limit, offset) => queries.settlements(accountId, environment, { ...filters, limit, offset }),
    pageSize,
  );
}

/** The whole CSV as one string, for a small export or a test. */
export async function csvText(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}
