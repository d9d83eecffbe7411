import type { PayoutMerchantView } from '@payouts/read-models';
import {
  Column,
  DataTable,
  EmptyState,
  Field,
  FilterForm,
  Layout,
  LocalTime,
  Notice,
  PageFrame,
  Pagination,
  SelectField,
} from '@payouts/web';
import { SEND_PAYOUTS_PATHS } from '../send-payouts-paths';
import { money, STATUS_OPTIONS, statusWords } from './payout-words';

/** The list's filters as typed: the query's own text, shown back in the form. */
export interface PayoutFilterValues {
  merchant_reference?: string;
  customer_id?: string;
  status?: string;
  since?: string;
  until?: string;
}

export interface PayoutsListPageProps {
  frame: PageFrame;
  filters: PayoutFilterValues;
  /** List Payouts' refusal of a filter: its field and message. */
  error?: { param?: string; message: string };
  page?: { total: number; limit: number; offset: number; data: readonly PayoutMerchantView[] };
  hrefFor: (offset: number) => string;
}

/** List Payouts' date forms (docs/dates.md): a day from 00:00 UTC, or a time with its zone. */
const DATE_HINT = 'YYYY-MM-DD (00:00 UTC), or a time with its zone';

/** Send payouts: the account's payouts in this environment, newest first, with List Payouts' filters. */
export function PayoutsListPage({ frame, filters, error, page, hrefFor }: PayoutsListPageProps) {
  const timeZone = frame.timeZone;
  const columns: Column<PayoutMerchantView>[] = [
    {
      header: 'Payout',
      cell: (payout) => (
        <a href={SEND_PAYOUTS_PATHS.payout(payout.payout_id)} class="send-payouts-id">
          {payout.payout_id}
        </a>
      ),
    },
    { header: 'Created', cell: (payout) => <LocalTime at={payout.created_at} timeZone={timeZone} /> },
    { header: 'Amount', numeric: true, cell: (payout) => money(payout.amount, payout.currency) },
    { header: 'Status', cell: (payout) => statusWords(payout.status) },
    { header: 'Customer', cell: (payout) => payout.customer_id ?? '—' },
    { header: 'Merchant reference', cell: (payout) => payout.merchant_reference },
  ];
  const errorAt = (name: string) => (error?.param === name ? error.message : null);
  const filtered = Object.values(filters).some((value) => value !== undefined && value !== '');
  return (
    <Layout title="Send payouts" current="sendPayouts" frame={frame} path={SEND_PAYOUTS_PATHS.list}>
      <p>
        <a href={SEND_PAYOUTS_PATHS.create} class="send-payouts-new">
          Send a payout
        </a>
      </p>
      <h2>Payouts</h2>
      {error ? (
        <Notice kind="error">
          <p>{error.message}</p>
        </Notice>
      ) : null}
      <FilterForm action={SEND_PAYOUTS_PATHS.list} label="Filter payouts">
        <Field
          name="merchant_reference"
          label="Merchant reference"
          type="search"
          value={filters.merchant_reference}
          error={errorAt('merchant_reference')}
        />
        <SelectField
          name="status"
          label="Status"
          options={STATUS_OPTIONS}
          value={filters.status}
          error={errorAt('status')}
        />
        <Field
          name="customer_id"
          label="Customer ID"
          value={filters.customer_id}
          error={errorAt('customer_id')}
        />
        <Field
          name="since"
          label="Created from"
          hint={DATE_HINT}
          value={filters.since}
          error={errorAt('since')}
        />
        <Field
          name="until"
          label="Created before"
          hint={DATE_HINT}
          value={filters.until}
          error={errorAt('until')}
        />
      </FilterForm>
      {page && page.total === 0 ? (
        filtered ? (
          <EmptyState title="No payouts match these filters">
            <p>
              Change or <a href={SEND_PAYOUTS_PATHS.list}>clear the filters</a>, or{' '}
              <a href={SEND_PAYOUTS_PATHS.create}>send a payout</a>.
            </p>
          </EmptyState>
        ) : (
          <EmptyState title="No payouts yet">
            <p>
              <a href={SEND_PAYOUTS_PATHS.create}>Send a payout</a>: you get a claim link to send to the
              recipient, who chooses how to be paid.
            </p>
          </EmptyState>
        )
      ) : null}
      {page && page.total > 0 ? (
        <>
          <DataTable
            caption={filtered ? 'Payouts matching the filters, newest first' : 'Payouts, newest first'}
            columns={columns}
            rows={page.data}
            rowKey={(payout) => payout.payout_id}
          />
          <Pagination
            total={page.total}
            offset={page.offset}
            shown={page.data.length}
            limit={page.limit}
            hrefFor={hrefFor}
            noun="payouts"
          />
        </>
      ) : null}
    </Layout>
  );
}
