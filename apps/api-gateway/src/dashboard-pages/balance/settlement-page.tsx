import type { BalanceTransactionView, SettlementView } from '@payouts/read-models';
import { DetailsList, EmptyState, hrefWith, Layout, LocalTime, PageFrame, Pagination } from '@payouts/web';
import type { ListPage } from './balance-page';
import { BALANCE_PATHS, settlementPath } from './balance-paths';
import { labelOf, money, SETTLEMENT_STATUS_LABELS, SETTLEMENT_TRIGGER_LABELS } from './funds-labels';
import { TransactionsTable } from './transactions-table';

export interface SettlementPageProps {
  frame: PageFrame;
  settlement: SettlementView;
  /** One page of the balance transactions the settlement covers. */
  movements: ListPage<BalanceTransactionView>;
}

const STATUS_MEANING: Readonly<Record<string, string>> = {
  in_transit: 'The money has left your available balance and is on its way to your bank.',
  paid: 'Your bank has been paid.',
  failed:
    'The transfer failed and the money went back to your available balance; the next settlement takes it.',
};

/** `/dashboard/balance/settlements/:id`: a settlement's fields and the movements it covers. */
export function SettlementPage({ frame, settlement, movements }: SettlementPageProps) {
  const { timeZone } = frame;
  const at = (time: string | null) => (time ? <LocalTime at={time} timeZone={timeZone} /> : null);
  const status = labelOf(SETTLEMENT_STATUS_LABELS, settlement.status);
  return (
    // The environment switch goes back to the list: a settlement belongs to one environment.
    <Layout
      title={`Settlement of ${money(settlement.amount, settlement.currency)}`}
      current="balance"
      frame={frame}
      path={BALANCE_PATHS.list}
    >
      <p>
        <a href={BALANCE_PATHS.list}>Back to Balance</a>
      </p>
      <DetailsList
        rows={[
          ['Settlement ID', <code>{settlement.id}</code>],
          ['Amount', money(settlement.amount, settlement.currency)],
          ['Status', `${status}. ${STATUS_MEANING[settlement.status] ?? ''}`.trim()],
          ['Failure reason', settlement.failure_reason],
          ['Trigger', labelOf(SETTLEMENT_TRIGGER_LABELS, settlement.trigger)],
          ['Retained target when it started', money(settlement.retained_target, settlement.currency)],
          ['Started', at(settlement.created_at)],
          ['Paid', at(settlement.paid_at)],
          ['Failed', at(settlement.failed_at)],
        ]}
      />
      <section aria-labelledby="settlement-movements-heading">
        <h2 id="settlement-movements-heading">Movements it covers</h2>
        <p>
          When a settlement starts it takes every movement of its ledger that is no longer pending and that no
          earlier settlement took, and its own settlement row: these add up to what was sent.
        </p>
        {movements.data.length === 0 ? (
          <EmptyState title="No movements on this page">
            <p>
              <a href={settlementPath(settlement.id)}>Go to the first page</a> of the movements.
            </p>
          </EmptyState>
        ) : (
          <>
            <TransactionsTable caption="Movements it covers" rows={movements.data} timeZone={timeZone} />
            <Pagination
              total={movements.total}
              offset={movements.offset}
              shown={movements.data.length}
              limit={movements.limit}
              hrefFor={(offset) =>
                hrefWith(settlementPath(settlement.id), {}, { offset: offset || undefined })
              }
              noun="movements"
            />
          </>
        )}
        <p>
          <a
            class="balance-download"
            href={hrefWith(BALANCE_PATHS.transactionsCsv, { settlement_id: settlement.id }, {})}
          >
            Download CSV<span class="visually-hidden"> of the movements this settlement covers</span>
          </a>
          {' · '}
          <a href={hrefWith(BALANCE_PATHS.list, { settlement_id: settlement.id }, {})}>
            See them in the balance transactions
          </a>
        </p>
      </section>
    </Layout>
  );
}

/** A settlement that is not this account's in this environment, or none at all: 404. */
export function SettlementNotFoundPage({ frame }: { frame: PageFrame }) {
  return (
    <Layout title="Settlement not found" current="balance" frame={frame} path={BALANCE_PATHS.list}>
      <p>
        There is no such settlement in {frame.environment === 'sandbox' ? 'the sandbox' : 'production'}. A
        settlement belongs to one environment: switch above if it is in the other one, or find it in the{' '}
        <a href={BALANCE_PATHS.list}>list of settlements</a>.
      </p>
    </Layout>
  );
}
