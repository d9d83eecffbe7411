import type { ComponentChildren } from 'preact';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** Amounts and counts: right-aligned with tabular figures. */
  numeric?: boolean;
}

export interface DataTableProps<Row> {
  /** Read first by screen readers; visible. */
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** A stable key per row (its id). */
  rowKey: (row: Row) => string;
}

/**
 * A list as a table with a caption and column headers. On a phone the table scrolls sideways in
 * its own region (focusable, so a keyboard can scroll it) instead of widening the page.
 */
export function DataTable<Row>({ caption, columns, rows, rowKey }: DataTableProps<Row>) {
  return (
    <div class="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table class="data-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" class={column.numeric ? 'numeric' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} class={column.numeric ? 'numeric' : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface DetailsListProps {
  /** Label and value, in the order shown; null values show as "—". */
  rows: readonly (readonly [string, ComponentChildren])[];
}

/** A resource's fields as a description list (a payout's, an order's, a settlement's). */
export function DetailsList({ rows }: DetailsListProps) {
  return (
    <dl class="details">
      {rows.map(([label, value]) => (
        <div key={label} class="details-row">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}
