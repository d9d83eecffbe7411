import type { OrderDetails } from '@payouts/checkout';
import type { OrderEvent, OrderInstrument } from '@payouts/domain';
import {
  Column,
  DASHBOARD_PATHS,
  DataTable,
  DetailsList,
  EmptyState,
  hrefWith,
  Layout,
  LocalTime,
  PageFrame,
  Pagination,
  Timeline,
  TimelineEntry,
} from '@payouts/web';
import type { OrderStreamEvent } from '../order-events';
import { orderPath } from './payments-page';
import { declineWords, instrumentWords, METHOD_WORDS, STATUS_WORDS } from './payment-words';

/** Declined attempts shown per page of the order's page. */
export const DECLINED_PAGE_SIZE = 10;

export interface DeclinedAttempt {
  eventId: string;
  attempt: number;
  reason: string;
  instrument: OrderInstrument;
  at: string;
}

/** The declined attempts among the order's events, oldest first. */
export function declinedAttempts(events: readonly OrderStreamEvent[]): DeclinedAttempt[] {
  return events.flatMap(({ eventId, event }) =>
    event.type === 'OrderPaymentDeclined' ? [{ eventId, ...event.data }] : [],
  );
}

export interface OrderPageProps {
  frame: PageFrame;
  order: OrderDetails;
  events: readonly OrderStreamEvent[];
  /** Index of the first declined attempt shown. */
  declinedOffset: number;
}

/** One order: its fields, its declined attempts and its events. */
export function OrderPage({ frame, order, events, declinedOffset }: OrderPageProps) {
  const { view } = order;
  const declined = declinedAttempts(events);
  const shown = declined.slice(declinedOffset, declinedOffset + DECLINED_PAGE_SIZE);
  const time = (at: string | null) => (at ? <LocalTime at={at} timeZone={frame.timeZone} /> : null);
  // The environment switch goes back to the list: this order is not in the other environment.
  return (
    <Layout title={`Order ${view.id}`} current="payments" frame={frame} path={DASHBOARD_PATHS.payments}>
      <p>
        <a href={DASHBOARD_PATHS.payments}>All payments</a>
      </p>
      <h2>Details</h2>
      <DetailsList
        rows={[
          ['Order id', String(view.id)],
          ['Status', `${STATUS_WORDS[view.status]} (${view.status})`],
          ['Amount', `${order.amount} ${view.currency}`],
          ['Method', METHOD_WORDS[view.method]],
          ['Customer', view.customer],
          ['Product', view.product],
          ['Webhook URL', view.hook_url],
          ['Created', time(view.created_at)],
          ['Payment deadline', time(view.expires_at)],
          ['Paid', time(view.paid_at)],
          ['Paid with', order.instrument ? instrumentWords(order.instrument) : null],
          ['Attempts', String(order.attempts)],
        ]}
      />
      <h2>Declined attempts</h2>
      {declined.length === 0 ? (
        <EmptyState title="No declined attempts">
          <p>
            When the acquirer declines a payer&apos;s attempt on the hosted page, it is listed here with its
            reason. The order stays pending and the payer may try again until the deadline.
          </p>
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption="Declined attempts, oldest first"
            columns={declinedColumns(frame)}
            rows={shown}
            rowKey={(attempt) => attempt.eventId}
          />
          <Pagination
            total={declined.length}
            offset={declinedOffset}
            shown={shown.length}
            limit={DECLINED_PAGE_SIZE}
            noun="declined attempts"
            hrefFor={(offset) => hrefWith(orderPath(view.id), {}, { offset })}
          />
        </>
      )}
      <Timeline
        heading="Events"
        timeZone={frame.timeZone}
        entries={events.map(({ eventId, event }) => ({ id: eventId, ...describe(event) }))}
      />
    </Layout>
  );
}

function declinedColumns(frame: PageFrame): Column<DeclinedAttempt>[] {
  return [
    { header: 'Attempt', numeric: true, cell: (attempt) => String(attempt.attempt) },
    { header: 'Time', cell: (attempt) => <LocalTime at={attempt.at} timeZone={frame.timeZone} /> },
    { header: 'Reason', cell: (attempt) => declineWords(attempt.reason) },
    { header: 'Paid with', cell: (attempt) => instrumentWords(attempt.instrument) },
  ];
}

/** An event in words, at the time the event itself records (the environment's clock). */
function describe(event: OrderEvent): Omit<TimelineEntry, 'id'> {
  switch (event.type) {
    case 'OrderCreated':
      return {
        at: event.data.createdAt,
        title: 'Order created',
        detail: `${event.data.amount} ${event.data.currency}, to be paid by ${METHOD_WORDS[event.data.method]}`,
      };
    case 'OrderPaymentDeclined':
      return {
        at: event.data.at,
        title: `Attempt ${event.data.attempt} declined: ${declineWords(event.data.reason)}`,
        detail: instrumentWords(event.data.instrument),
      };
    case 'OrderPaid':
      return {
        at: event.data.at,
        title: `Paid on attempt ${event.data.attempt}`,
        detail: instrumentWords(event.data.instrument),
      };
    case 'OrderExpired':
      return {
        at: event.data.at,
        title: 'Expired unpaid',
        detail: 'Its payment deadline passed before it was paid.',
      };
    default: {
      const never: never = event;
      throw new Error(`no words for order event ${JSON.stringify(never)}`);
    }
  }
}

/** Another account's or environment's order, or none at all: the same 404 page. */
export function OrderNotFoundPage({ frame }: { frame: PageFrame }) {
  return (
    <Layout title="Order not found" current="payments" frame={frame} path={DASHBOARD_PATHS.payments}>
      <p>
        There is no such order among the {frame.environment === 'sandbox' ? 'sandbox' : 'production'} orders
        of this account. An order of the other environment is shown once you switch to it.
      </p>
      <p>
        <a href={DASHBOARD_PATHS.payments}>All payments</a>
      </p>
    </Layout>
  );
}
