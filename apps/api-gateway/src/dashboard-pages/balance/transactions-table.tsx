import type { BalanceTransactionView } from '@payouts/read-models';
import { Column, DataTable, LocalTime } from '@payouts/web';
import { settlementPath } from './balance-paths';
import { labelOf, money, TRANSACTION_STATUS_LABELS, TRANSACTION_TYPE_LABELS } from './funds-labels';

export interface TransactionsTableProps {
  caption: string;
  rows: readonly BalanceTransactionView[];
  timeZone: string;
}

/**
 * Balance transactions as the API lists them (newest first), one row a movement: its time in the
 * account's zone, type, what it was, the three figures as given, status, when it clears, and the
 * settlement that is it or took it (a link to that settlement's page).
 */
export function TransactionsTable({ caption, rows, timeZone }: TransactionsTableProps) {
  const columns: Column<BalanceTransactionView>[] = [
    { header: 'Created', cell: (row) => <LocalTime at={row.created_at} timeZone={timeZone} /> },
    { header: 'Type', cell: (row) => labelOf(TRANSACTION_TYPE_LABELS, row.type) },
    { header: 'Description', cell: (row) => row.description },
    { header: 'Amount', numeric: true, cell: (row) => money(row.amount, row.currency) },
    { header: 'Fee', numeric: true, cell: (row) => money(row.fee, row.currency) },
    { header: 'Net', numeric: true, cell: (row) => money(row.net, row.currency) },
    { header: 'Status', cell: (row) => labelOf(TRANSACTION_STATUS_LABELS, row.status) },
    {
      header: 'Available on',
      cell: (row) => (row.available_on ? <LocalTime at={row.available_on} timeZone={timeZone} /> : '—'),
    },
    {
      header: 'Settlement',
      cell: (row) => <SettlementLink id={row.settlement_id ?? row.included_in_settlement} />,
    },
  ];
  // The wrapper's class keeps figures and times on one line (the description wraps): see the stylesheet.
  return (
    <div class="balance-transactions">
      <DataTable caption={caption} columns={columns} rows={rows} rowKey={(row) => row.id} />
    </div>
  );
}

function SettlementLink({ id }: { id: string | null }) {
  return id ? <a href={settlementPath(id)}>{id}</a> : <>—</>;
}
