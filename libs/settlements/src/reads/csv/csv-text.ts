/**
 * CSV as RFC 4180 writes it, made safe to open in a spreadsheet.
 *
 * Formula injection: Excel, LibreOffice and Google Sheets run a cell that starts with `=`, `+`,
 * `-` or `@` as a formula (and some strip a leading tab or carriage return first), so a payout
 * release reason or an operator's credit reason such as `=HYPERLINK("https://evil.example","x")`
 * would run on the merchant's machine. Such a cell is written with a `'` in front, which the
 * spreadsheets show as text (OWASP's "CSV Injection" advice). A plain decimal number such as
 * `-3.20` is left as it is: it cannot be a formula, and a negative amount is the commonest cell
 * in a balance export; prefixing it would turn every debit into text.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** The cell as a spreadsheet will show it, never as a formula it would run. */
export function neutralizeFormula(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

/** One field: null and undefined as an empty field, quoted (quotes doubled) only when it must be. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const cell = neutralizeFormula(String(value));
  return NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One record with its line break: RFC 4180 ends every line, the last too, with CRLF. */
export function csvRecord(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** A column of an export: its header and how a row gives its cell. */
export interface CsvColumn<Row> {
  header: string;
  cell: (row: Row) => string | number | null;
}

export const csvHeader = <Row>(columns: readonly CsvColumn<Row>[]): string =>
  csvRecord(columns.map((column) => column.header));

export const csvRow = <Row>(columns: readonly CsvColumn<Row>[], row: Row): string =>
  csvRecord(columns.map((column) => column.cell(row)));
