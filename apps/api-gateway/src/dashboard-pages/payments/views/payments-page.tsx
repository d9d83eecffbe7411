import type { ListedOrder, OrderSearch } from '@payouts/checkout';
import { ORDER_METHODS, ORDER_STATUSES } from '@payouts/domain';
import {
  Column,
  DASHBOARD_PATHS,
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
import type { PaymentsQuery, PaymentsRefusals } from '../payments-filter';
import { METHOD_WORDS, STATUS_WORDS } from './payment-words';

/** The address of one order's page. */
export const orderPath = (orderId: number): string => `${DASHBOARD_PATHS.payments}/${orderId}`;

export interface PaymentsPageProps {
  frame: PageFrame;
  query: PaymentsQuery;
  refusals: PaymentsRefusals;
  /** Null when a field was refused: nothing is listed then. */
  result: { search: OrderSearch; limit: number; offset: number } | null;
}

const DATE_HINT =
  'As Get Payments History takes it, both ends included: 2026-01-31 is that day at 00:00 UTC; add a time and zone for more, as 2026-01-31T23:59:59+01:00.';

const END_HINT = 'The same forms: a date alone is that day at 00:00 UTC, not the whole day.';

/** Payments: the checkout orders of the environment shown, filtered, with their sum. */
export function PaymentsPage({ frame, query, refusals, result }: PaymentsPageProps) {
  const refused = Object.values(refusals);
  const filtered = Boolean(query.status || query.method || query.start_date || query.end_date);
  return (
    <Layout title="Payments" current="payments" frame={frame} path={DASHBOARD_PATHS.payments}>
      <p>
        Checkout orders of {frame.environment === 'sandbox' ? 'the sandbox' : 'production'}, newest first:
        what the payers were asked to pay, and what became of it.
      </p>
      {refused.length > 0 ? (
        <Notice kind="error">
          <p>The list could not be shown: {refused.join(' ')}</p>
        </Notice>
      ) : null}
      <Filters query={query} refusals={refusals} />
      {result ? <Results {...result} query={query} filtered={filtered} frame={frame} /> : null}
    </Layout>
  );
}

function Filters({ query, refusals }: { query: PaymentsQuery; refusals: PaymentsRefusals }) {
  return (
    <FilterForm action={DASHBOARD_PATHS.payments} label="Filter payments">
      <SelectField
        name="status"
        label="Status"
        value={query.status}
        error={refusals.status}
        options={[['', 'Any'], ...ORDER_STATUSES.map((status) => [status, STATUS_WORDS[status]] as const)]}
      />
      <SelectField
        name="method"
        label="Method"
        value={query.method}
        error={refusals.method}
        options={[['', 'Any'], ...ORDER_METHODS.map((method) => [method, METHOD_WORDS[method]] as const)]}
      />
      <Field
        name="start_date"
        label="Created from"
        value={query.start_date}
        hint={DATE_HINT}
        error={refusals.start_date}
      />
      <Field
        name="end_date"
        label="Created to"
        value={query.end_date}
        hint={END_HINT}
        error={refusals.end_date}
      />
      {query.limit ? <input type="hidden" name="limit" value={query.limit} /> : null}
    </FilterForm>
  );
}

interface ResultsProps {
  search: OrderSearch;
  limit: number;
  offset: number;
  query: PaymentsQuery;
  filtered: boolean;
  frame: PageFrame;
}

function Results({ search, limit, offset, query, filtered, frame }: ResultsProps) {
  if (search.total === 0 && !filtered) return <NoPayments frame={frame} />;
  if (search.total === 0) {
    return (
      <EmptyState title="No orders match these filters">
        <p>
          Widen the dates or choose another status or method, or{' '}
          <a href={DASHBOARD_PATHS.payments}>see every order</a>.
        </p>
      </EmptyState>
    );
  }
  const columns: Column<ListedOrder>[] = [
    { header: 'Order', cell: ({ view }) => <a href={orderPath(view.id)}>{view.id}</a> },
    { header: 'Created', cell: ({ view }) => <LocalTime at={view.created_at} timeZone={frame.timeZone} /> },
    { header: 'Amount', numeric: true, cell: ({ view, amount }) => `${amount} ${view.currency}` },
    { header: 'Method', cell: ({ view }) => METHOD_WORDS[view.method] },
    { header: 'Status', cell: ({ view }) => STATUS_WORDS[view.status] },
    { header: 'Customer', cell: ({ view }) => view.customer },
    { header: 'Product', cell: ({ view }) => view.product || '—' },
  ];
  return (
    <>
      <Sum search={search} />
      {search.data.length === 0 ? (
        <p>
          This page is past the last order.{' '}
          <a href={hrefWith(DASHBOARD_PATHS.payments, query, { offset: 0 })}>Back to the first page</a>.
        </p>
      ) : (
        <DataTable
          caption="Orders"
          columns={columns}
          rows={search.data}
          rowKey={({ view }) => String(view.id)}
        />
      )}
      <Pagination
        total={search.total}
        offset={offset}
        shown={search.data.length}
        limit={limit}
        noun="orders"
        hrefFor={(next) => hrefWith(DASHBOARD_PATHS.payments, query, { offset: next })}
      />
    </>
  );
}

/**
 * The exact sum of every matching order (on every page), per currency: the database's sum over the
 * rows Get Payments History selects for the same dates. Never added up here.
 */
function Sum({ search }: { search: OrderSearch }) {
  const noun = search.total === 1 ? 'order' : 'orders';
  return (
    <p class="payments-sum">
      Sum of the {search.total} matching {noun}:{' '}
      {search.sums.map((sum, index) => (
        <span key={sum.currency}>
          {index > 0 ? ', ' : null}
          <strong>
            {sum.amount} {sum.currency}
          </strong>
          {search.sums.length > 1 ? ` (${sum.orders} ${sum.orders === 1 ? 'order' : 'orders'})` : null}
        </span>
      ))}
    </p>
  );
}

function NoPayments({ frame }: { frame: PageFrame }) {
  const prefix = frame.environment === 'sandbox' ? '/sandbox' : '';
  return (
    <EmptyState
      title={`No payments in ${frame.environment === 'sandbox' ? 'the sandbox' : 'production'} yet`}
    >
      <p>
        An order arrives here when your shop creates one with the checkout API (
        <code>POST {prefix}/card</code> or one of the four wallet paths, with a checkout key of this
        environment) and sends the payer to its <code>order_url</code>. How an order goes from there is in{' '}
        <code>docs/checkout.md</code>; the requests are in the <a href="/docs">API reference</a>.
      </p>
    </EmptyState>
  );
}
