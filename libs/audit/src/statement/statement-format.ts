import { FIGURE_NAMES, StatementLine } from './statement-line';

/** The columns of a statement, in order: the CSV header and the keys of each JSON line. */
export const STATEMENT_COLUMNS = [
  'kind',
  'time',
  'ledger_version',
  'type',
  'transaction_id',
  'currency',
  'order_id',
  'payout_id',
  'settlement_id',
  'description',
  'amount',
  'fee',
  'net',
  ...FIGURE_NAMES,
] as const;
export type StatementColumn = (typeof STATEMENT_COLUMNS)[number];
export type StatementRecord = Record<StatementColumn, string | number | null>;

export const STATEMENT_FORMATS = ['csv', 'json'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export function statementRecord(line: StatementLine): StatementRecord {
  return {
    kind: line.kind,
    time: line.time,
    ledger_version: line.ledgerVersion,
    type: line.type,
    transaction_id: line.transactionId,
    currency: line.currency,
    order_id: line.orderId,
    payout_id: line.payoutId,
    settlement_id: line.settlementId,
    description: line.description,
    amount: line.amount,
    fee: line.fee,
    net: line.net,
    // In the columns' order, whatever the order of the figures' keys.
    ...Object.fromEntries(FIGURE_NAMES.map((name) => [name, line.figures[name]])),
  } as StatementRecord;
}

/** A signed decimal such as -30.50: a number to a spreadsheet, and never a formula. */
const PLAIN_NUMBER = /^-?[0-9]+(\.[0-9]+)?$/;
/** What a spreadsheet reads as the start of a formula (OWASP, "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180: a field with a comma, a double quote or a line break is quoted, its quotes doubled.
 * Text a spreadsheet would run as a formula (an operator's reason or a payer's name can start with
 * `=`) gets a leading apostrophe first, so opening a statement runs nothing; money, whose negative
 * amounts start with `-`, stays a number.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CSV_HEADER = STATEMENT_COLUMNS.map(csvField).join(',');

/** One line of output: a CSV record, or one JSON object (NDJSON) with the same keys. */
export function formatStatementLine(line: StatementLine, format: StatementFormat): string {
  const record = statementRecord(line);
  if (format === 'json') return JSON.stringify(record);
  return STATEMENT_COLUMNS.map((column) => csvField(record[column])).join(',');
}
