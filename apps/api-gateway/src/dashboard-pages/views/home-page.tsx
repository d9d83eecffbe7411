import { MIN_SETTLEMENT } from '@payouts/domain';
import { dailyFlowsChart, dailyFlowsTable } from '@payouts/read-models';
import type { BalanceTransactionView, DailyFlowsTable } from '@payouts/read-models';
import type { DailyFlows } from '@payouts/settlements';
import {
  Column,
  DASHBOARD_PATHS,
  DataTable,
  DetailsList,
  EmptyState,
  Field,
  FilterForm,
  hrefWith,
  Layout,
  LocalTime,
  Notice,
  PageFrame,
  Pagination,
} from '@payouts/web';
import type { ComponentChildren } from 'preact';
import type { ListPage } from '../balance/balance-page';
import { BALANCE_PATHS } from '../balance/balance-paths';
import { labelOf, money, TRANSACTION_TYPE_LABELS } from '../balance/funds-labels';

/**
 * Get Payout Balance's answer (`GET /api/payout/balance`, docs/balance.md): every figure, or, when
 * the balance cannot be calculated, `available: null` and the reason.
 */
export type PayoutBalanceBody =
  | {
      currency: string;
      limits: {
        fee_per_payout: string;
        min_payout: string;
        max_payout: string;
        max_open_exposure: string | null;
        max_pending_per_customer: number | null;
      };
      pending: string;
      matured: string;
      available_for_new_commitments: string;
      merchant_settlement_holds: string;
      customer_payout_holds: string;
      customer_payouts_settled: string;
      retained_target: string;
      estimated_next_settlement: string;
      next_settlement_at: string;
    }
  | { currency: string; available: null; reason: string };

export interface HomePageProps {
  frame: PageFrame;
  balance: PayoutBalanceBody;
  /** One page of the balance transactions still pending (proceeds not cleared yet). */
  pending: ListPage<BalanceTransactionView>;
  /** The chart's 30 days; null when the currency asked for was refused. */
  flows: DailyFlows | null;
  /** The chart currency as sent (empty for the default), and why it was refused. */
  currencyValue: string;
  currencyError: string | null;
}

/**
 * Home: the payout balance with every figure explained, the next settlement, the proceeds still
 * pending and the last 30 days of money in and out, drawn as SVG with its figures as a table.
 */
export function HomePage({ frame, balance, pending, flows, currencyValue, currencyError }: HomePageProps) {
  return (
    <Layout title="Home" current="home" frame={frame} path={DASHBOARD_PATHS.home}>
      <p>
        You are signed in to <strong>{frame.accountName}</strong>, showing{' '}
        {frame.environment === 'sandbox' ? 'sandbox (test) data' : 'production data'}. Times are in{' '}
        {frame.timeZone}.
      </p>
      {'available' in balance ? (
        <BalanceUnavailable currency={balance.currency} reason={balance.reason} />
      ) : (
        <BalanceFigures balance={balance} timeZone={frame.timeZone} />
      )}
      <PendingProceeds pending={pending} timeZone={frame.timeZone} currencyValue={currencyValue} />
      <LastThirtyDays
        flows={flows}
        timeZone={frame.timeZone}
        currencyValue={currencyValue}
        currencyError={currencyError}
      />
    </Layout>
  );
}

type AvailableBalance = Exclude<PayoutBalanceBody, { available: null }>;

interface FigureProps {
  label: string;
  /** The API's field name, for anyone matching the page with the API or the CSV. */
  field: string;
  children: ComponentChildren;
  /** One sentence: what the figure is. */
  note: string;
}

function Figure({ label, field, children, note }: FigureProps) {
  return (
    <div class="home-figure">
      <dt>
        {label} <code>{field}</code>
      </dt>
      <dd class="home-figure-value">{children}</dd>
      <dd class="home-figure-note">{note}</dd>
    </div>
  );
}

function BalanceFigures({ balance, timeZone }: { balance: AvailableBalance; timeZone: string }) {
  const cur = balance.currency;
  const { limits } = balance;
  return (
    <>
      <section aria-labelledby="home-balance-heading">
        <h2 id="home-balance-heading">Payout balance ({cur})</h2>
        <p>
          The figures of Get Payout Balance. Payouts draw on your {cur} balance only; payments in other
          currencies are settled to your bank.
        </p>
        <dl class="home-figures">
          <Figure
            label="Available for new commitments"
            field="available_for_new_commitments"
            note="What a new payout (its amount plus fee) can be created against, and what the next settlement can take."
          >
            {money(balance.available_for_new_commitments, cur)}
          </Figure>
          <Figure
            label="Pending"
            field="pending"
            note="Checkout proceeds, net of processing fees, that have not cleared yet; each clears on its own date (listed below)."
          >
            {money(balance.pending, cur)}
          </Figure>
          <Figure
            label="Matured"
            field="matured"
            note="Cleared money owed to you before holds: available for new commitments plus customer payout holds plus merchant settlement holds."
          >
            {money(balance.matured, cur)}
          </Figure>
          <Figure
            label="Customer payout holds"
            field="customer_payout_holds"
            note="Reserved for payouts not completed yet, fees included; it returns to available when a payout is cancelled, expires or fails."
          >
            {money(balance.customer_payout_holds, cur)}
          </Figure>
          <Figure
            label="Customer payouts settled"
            field="customer_payouts_settled"
            note="Paid out to your customers so far, fees included."
          >
            {money(balance.customer_payouts_settled, cur)}
          </Figure>
          <Figure
            label="Merchant settlement holds"
            field="merchant_settlement_holds"
            note="Held for a settlement under way to your bank; it leaves when the bank is paid, or returns to available if the transfer fails."
          >
            {money(balance.merchant_settlement_holds, cur)}
          </Figure>
          <Figure
            label="Retained target"
            field="retained_target"
            note="What you asked to keep back from automatic settlement; it is not a cap on payouts."
          >
            {money(balance.retained_target, cur)}
          </Figure>
        </dl>
        <h3>Payout limits</h3>
        <dl class="home-figures">
          <Figure
            label="Fee per payout"
            field="limits.fee_per_payout"
            note="Charged on top of each payout's amount."
          >
            {money(limits.fee_per_payout, cur)}
          </Figure>
          <Figure label="Smallest payout" field="limits.min_payout" note="A payout's amount may not be less.">
            {money(limits.min_payout, cur)}
          </Figure>
          <Figure label="Largest payout" field="limits.max_payout" note="A payout's amount may not be more.">
            {money(limits.max_payout, cur)}
          </Figure>
          <Figure
            label="Open exposure cap"
            field="limits.max_open_exposure"
            note="The most that payouts not completed yet may add up to, fees included."
          >
            {limits.max_open_exposure === null ? 'No cap' : money(limits.max_open_exposure, cur)}
          </Figure>
          <Figure
            label="Pending payouts per customer"
            field="limits.max_pending_per_customer"
            note="How many payouts not completed yet one customer may have at once."
          >
            {limits.max_pending_per_customer === null ? 'No cap' : String(limits.max_pending_per_customer)}
          </Figure>
        </dl>
      </section>
      <section aria-labelledby="home-settlement-heading">
        <h2 id="home-settlement-heading">Next settlement</h2>
        <dl class="home-figures">
          <Figure
            label="Estimated amount"
            field="estimated_next_settlement"
            note={`What a settlement run would take now: available for new commitments minus the retained target, never below 0.00. A run sends nothing below ${MIN_SETTLEMENT}, and the daily run leaves alone a balance funded only by credits.`}
          >
            {money(balance.estimated_next_settlement, cur)}
          </Figure>
          <Figure
            label="Next run"
            field="next_settlement_at"
            note="When the next automatic settlement run is due, on this environment's clock (the sandbox's may be ahead of real time)."
          >
            <LocalTime at={balance.next_settlement_at} timeZone={timeZone} />
          </Figure>
        </dl>
        <p>
          Past settlements and the movements each covered are on the <a href={BALANCE_PATHS.list}>Balance</a>{' '}
          page.
        </p>
      </section>
    </>
  );
}

function BalanceUnavailable({ currency, reason }: { currency: string; reason: string }) {
  return (
    <section aria-labelledby="home-balance-heading">
      <h2 id="home-balance-heading">Payout balance ({currency})</h2>
      <Notice kind="info">
        <p>
          The balance cannot be calculated right now: <strong>{reason}</strong>.
        </p>
      </Notice>
      <p>
        Get Payout Balance answers <code>available: null</code> with this reason, and Create Payout is refused
        with <code>balance_unavailable</code> until the balance can be calculated. It can be once the account
        has a ledger in this environment (money credited or a checkout payment) with its payout limits set,
        and a moment after the balance has caught up with a burst of activity. The next settlement cannot be
        estimated meanwhile.
      </p>
    </section>
  );
}

function PendingProceeds({
  pending,
  timeZone,
  currencyValue,
}: {
  pending: ListPage<BalanceTransactionView>;
  timeZone: string;
  currencyValue: string;
}) {
  const columns: Column<BalanceTransactionView>[] = [
    { header: 'Paid', cell: (row) => <LocalTime at={row.created_at} timeZone={timeZone} /> },
    { header: 'Type', cell: (row) => labelOf(TRANSACTION_TYPE_LABELS, row.type) },
    { header: 'Order', cell: (row) => (row.order_id === null ? '—' : String(row.order_id)) },
    { header: 'Net', numeric: true, cell: (row) => money(row.net, row.currency) },
    {
      header: 'Clears',
      cell: (row) => (row.available_on ? <LocalTime at={row.available_on} timeZone={timeZone} /> : '—'),
    },
  ];
  return (
    <section aria-labelledby="home-pending-heading">
      <h2 id="home-pending-heading">Pending proceeds</h2>
      <p>
        Checkout payments and their processing fees that have not cleared yet, newest first. Each joins your
        available balance on the day it clears; in each currency the nets add up to that currency's pending
        figure.
      </p>
      {pending.data.length === 0 ? (
        <EmptyState title="Nothing waiting to clear">
          <p>
            A checkout payment shows here from the moment it is paid until it clears (card payments in 2 days,
            other methods in 1 by default). Its money is then in your balance.
          </p>
        </EmptyState>
      ) : (
        <>
          <div class="home-pending">
            <DataTable
              caption="Pending proceeds"
              columns={columns}
              rows={pending.data}
              rowKey={(row) => row.id}
            />
          </div>
          <Pagination
            total={pending.total}
            offset={pending.offset}
            shown={pending.data.length}
            limit={pending.limit}
            hrefFor={(offset) =>
              hrefWith(
                DASHBOARD_PATHS.home,
                { currency: currencyValue },
                { pending_offset: offset || undefined },
              )
            }
            noun="pending movements"
          />
        </>
      )}
    </section>
  );
}

function LastThirtyDays({
  flows,
  timeZone,
  currencyValue,
  currencyError,
}: {
  flows: DailyFlows | null;
  timeZone: string;
  currencyValue: string;
  currencyError: string | null;
}) {
  const currency = flows?.currency;
  return (
    <section aria-labelledby="home-flows-heading">
      <h2 id="home-flows-heading">Last 30 days{currency ? ` in ${currency}` : ''}</h2>
      <p>
        Per day in {timeZone}, ending today: payments in (net of processing fees), payouts out to customers
        (fees included) and settlements out to your bank.
      </p>
      <FilterForm action={DASHBOARD_PATHS.home} label="Chart currency">
        <Field
          name="currency"
          label="Currency"
          value={currencyValue}
          hint="The ledger to chart: three capital letters, such as USD (the default) or GBP."
          error={currencyError}
        />
      </FilterForm>
      {flows === null ? <p>Correct the currency above to see the chart.</p> : <Flows flows={flows} />}
    </section>
  );
}

function Flows({ flows }: { flows: DailyFlows }) {
  const { currency, timeZone, days } = flows;
  const table = dailyFlowsTable(days, `Money in and out per day, ${currency}`);
  const svg = dailyFlowsChart(days, {
    id: 'home-chart',
    title: `Money in and out per day, last ${days.length} days, ${currency}`,
    currency,
    xAxisLabel: `Day (${timeZone})`,
  });
  return (
    <>
      <div class="home-flows">
        {/* The chart's markup is built and escaped by dailyFlowsChart: no script, no style attribute. */}
        <div class="home-chart" dangerouslySetInnerHTML={{ __html: svg }} />
        <FlowsTable table={table} />
      </div>
      <DetailsList
        rows={[
          [`Payments in, ${days.length} days`, money(table.totals.paymentsIn, currency)],
          [`Payouts out, ${days.length} days`, money(table.totals.payoutsOut, currency)],
          [`Settlements out, ${days.length} days`, money(table.totals.settlementsOut, currency)],
        ]}
      />
      <p>
        Every figure is a sum of{' '}
        <a href={hrefWith(BALANCE_PATHS.list, { currency }, {})}>balance transactions</a>.
      </p>
    </>
  );
}

function FlowsTable({ table }: { table: DailyFlowsTable }) {
  type Row = DailyFlowsTable['rows'][number];
  const columns: Column<Row>[] = table.columns.map(({ key, label }) =>
    key === 'date'
      ? { header: label, cell: (row: Row) => row.dateLabel }
      : { header: label, numeric: true, cell: (row: Row) => row[key] },
  );
  return <DataTable caption={table.caption} columns={columns} rows={table.rows} rowKey={(row) => row.date} />;
}
