import { TRANSACTION_TYPES } from '@payouts/read-models';
import type { BalanceTransactionView, SettlementView } from '@payouts/read-models';
import {
  Column,
  DataTable,
  EmptyState,
  Field,
  FilterForm,
  hrefWith,
  Layout,
  LocalTime,
  Notice,
  PageFrame,
  Pagination,
  SelectField,
} from '@payouts/web';
import { BALANCE_PATHS, settlementPath } from './balance-paths';
import type { FilterRefusal, FilterValues, TransactionFilterField } from './balance-filters';
import { TRANSACTION_FILTER_FIELDS } from './balance-filters';
import {
  labelOf,
  money,
  SETTLEMENT_STATUS_LABELS,
  SETTLEMENT_TRIGGER_LABELS,
  TRANSACTION_TYPE_LABELS,
} from './funds-labels';
import { TransactionsTable } from './transactions-table';

/** One page of a list, as FundsQueries answers it. */
export interface ListPage<Row> {
  total: number;
  limit: number;
  offset: number;
  data: Row[];
}

export interface BalancePageProps {
  frame: PageFrame;
  /** The filter as sent, for the form and the links. */
  values: FilterValues;
  /** Why the filter was refused; the transactions are then not listed. */
  refusal: FilterRefusal | null;
  transactions: ListPage<BalanceTransactionView> | null;
  settlements: ListPage<SettlementView>;
  settlementHourUtc: number;
}

const TYPE_OPTIONS: readonly (readonly [string, string])[] = [
  ['', 'Any type'],
  ...TRANSACTION_TYPES.map((type) => [type, TRANSACTION_TYPE_LABELS[type]] as const),
];

const DATE_HINT =
  'A day as 2026-03-31 (from 00:00 UTC), or a time with its offset, as 2026-03-31T09:30+01:00.';

/** `/dashboard/balance`: the balance transactions, filtered, and the settlements. */
export function BalancePage(props: BalancePageProps) {
  const { frame, values, refusal, transactions, settlements } = props;
  const errorOf = (field: TransactionFilterField) => (refusal?.field === field ? refusal.message : null);
  const state = {
    ...values,
    offset: transactions && transactions.offset > 0 ? String(transactions.offset) : undefined,
    settlements_offset: settlements.offset > 0 ? String(settlements.offset) : undefined,
  };
  const filtered = TRANSACTION_FILTER_FIELDS.some((field) => values[field] !== undefined);
  return (
    <Layout title="Balance" current="balance" frame={frame} path={BALANCE_PATHS.list}>
      <section aria-labelledby="balance-transactions-heading">
        <h2 id="balance-transactions-heading">Balance transactions</h2>
        <p>
          Every movement of your balance, newest first: checkout payments and their processing fees, payouts,
          settlements to your bank and adjustments. Times are in {frame.timeZone}.
        </p>
        {refusal && !TRANSACTION_FILTER_FIELDS.some((field) => field === refusal.field) ? (
          <Notice kind="error">{refusal.message}</Notice>
        ) : null}
        <FilterForm action={BALANCE_PATHS.list} label="Filter balance transactions">
          <SelectField
            name="type"
            label="Type"
            options={TYPE_OPTIONS}
            value={values.type}
            error={errorOf('type')}
          />
          <Field
            name="currency"
            label="Currency"
            value={values.currency}
            hint="Three capital letters, such as USD."
            error={errorOf('currency')}
          />
          <Field name="since" label="Since" value={values.since} hint={DATE_HINT} error={errorOf('since')} />
          <Field
            name="until"
            label="Until (not included)"
            value={values.until}
            hint={DATE_HINT}
            error={errorOf('until')}
          />
          <Field
            name="settlement_id"
            label="Settlement"
            value={values.settlement_id}
            hint="A settlement's ID (stl_…): only the movements it covers."
            error={errorOf('settlement_id')}
          />
        </FilterForm>
        {transactions === null ? (
          <p>Correct the filter above to see the balance transactions.</p>
        ) : transactions.data.length === 0 ? (
          <EmptyState
            title={filtered ? 'No balance transactions match this filter' : 'No balance transactions yet'}
          >
            {filtered ? (
              <p>
                Change the filter, or <a href={BALANCE_PATHS.list}>clear it</a> to see every movement.
              </p>
            ) : (
              <p>
                Movements appear here as soon as a checkout payment is paid, a payout is created or a
                settlement runs. Nothing has moved in this environment yet.
              </p>
            )}
          </EmptyState>
        ) : (
          <>
            <TransactionsTable
              caption="Balance transactions"
              rows={transactions.data}
              timeZone={frame.timeZone}
            />
            <Pagination
              total={transactions.total}
              offset={transactions.offset}
              shown={transactions.data.length}
              limit={transactions.limit}
              hrefFor={(offset) => hrefWith(BALANCE_PATHS.list, state, { offset: offset || undefined })}
              noun="balance transactions"
            />
            <p>
              <a class="balance-download" href={hrefWith(BALANCE_PATHS.transactionsCsv, values, {})}>
                Download CSV
                <span class="visually-hidden"> of the {transactions.total} balance transactions</span>
              </a>{' '}
              (every page of this filter, with running balances).
            </p>
          </>
        )}
      </section>
      <section aria-labelledby="balance-settlements-heading">
        <h2 id="balance-settlements-heading">Settlements</h2>
        <p>
          Money sent from your balance to your bank, newest first. Each settlement lists the movements it
          covers.
        </p>
        {settlements.data.length === 0 ? (
          <EmptyState title="No settlements yet">
            <p>
              A settlement runs every day at {String(props.settlementHourUtc).padStart(2, '0')}:00 UTC and
              takes what is available above your retained target, when that is at least 1.00. Until then your
              money stays in your balance.
            </p>
          </EmptyState>
        ) : (
          <>
            <SettlementsTable rows={settlements.data} timeZone={frame.timeZone} />
            <Pagination
              total={settlements.total}
              offset={settlements.offset}
              shown={settlements.data.length}
              limit={settlements.limit}
              hrefFor={(offset) =>
                hrefWith(BALANCE_PATHS.list, state, { settlements_offset: offset || undefined })
              }
              noun="settlements"
            />
            <p>
              <a class="balance-download" href={BALANCE_PATHS.settlementsCsv}>
                Download CSV<span class="visually-hidden"> of the {settlements.total} settlements</span>
              </a>{' '}
              (every settlement).
            </p>
          </>
        )}
      </section>
    </Layout>
  );
}

function SettlementsTable({ rows, timeZone }: { rows: readonly SettlementView[]; timeZone: string }) {
  const columns: Column<SettlementView>[] = [
    { header: 'Settlement', cell: (row) => <a href={settlementPath(row.id)}>{row.id}</a> },
    { header: 'Started', cell: (row) => <LocalTime at={row.created_at} timeZone={timeZone} /> },
    { header: 'Amount', numeric: true, cell: (row) => money(row.amount, row.currency) },
    {
      header: 'Status',
      cell: (row) =>
        row.failure_reason
          ? `${labelOf(SETTLEMENT_STATUS_LABELS, row.status)}: ${row.failure_reason}`
          : labelOf(SETTLEMENT_STATUS_LABELS, row.status),
    },
    { header: 'Trigger', cell: (row) => labelOf(SETTLEMENT_TRIGGER_LABELS, row.trigger) },
    {
      header: 'Paid or failed',
      cell: (row) => {
        const at = row.paid_at ?? row.failed_at;
        return at ? <LocalTime at={at} timeZone={timeZone} /> : '—';
      },
    },
  ];
  return (
    <div class="balance-settlements">
      <DataTable caption="Settlements" columns={columns} rows={rows} rowKey={(row) => row.id} />
    </div>
  );
}
