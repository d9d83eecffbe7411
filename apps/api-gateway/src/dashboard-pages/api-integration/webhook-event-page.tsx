import { DataTable, DetailsList, Layout, LocalTime, Notice, PageFrame } from '@payouts/web';
import type { DeliveryLogEntry, EventLogEntry } from '@payouts/webhooks';
import type { PageMessage } from './api-integration-page';
import { API_INTEGRATION_PATHS } from './api-integration-paths';
import { latencyWords, ResendForm, STATUS_WORDS, statusCodeWords, TRIGGER_WORDS } from './delivery-words';

export interface WebhookEventPageProps {
  frame: PageFrame;
  event: EventLogEntry;
  message?: PageMessage | null;
}

/**
 * One event of the delivery log: what it is, every delivery (automatic, test, resends) with
 * every attempt's time, status code, latency and error, the exact body sent, and Resend.
 */
export function WebhookEventPage({ frame, event, message }: WebhookEventPageProps) {
  const time = (at: string | null) => (at ? <LocalTime at={at} timeZone={frame.timeZone} /> : null);
  return (
    // The environment switch goes back to the log: the event is of one environment only.
    <Layout title="Webhook event" current="apiIntegration" frame={frame} path={API_INTEGRATION_PATHS.page}>
      <p>
        <a href={API_INTEGRATION_PATHS.page}>Back to API integration</a>
      </p>
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
      <DetailsList
        rows={[
          ['Event ID', <code class="api-integration-id">{event.eventId}</code>],
          ['Type', <code>{event.type}</code>],
          ['Environment', event.environment === 'sandbox' ? 'Sandbox' : 'Production'],
          [
            'Payout',
            event.payoutId ? <code class="api-integration-id">{event.payoutId}</code> : 'None (a test event)',
          ],
          ['Created', time(event.createdAt)],
        ]}
      />
      <ResendForm eventId={event.eventId} csrfToken={frame.csrfToken} />
      <p class="hint">
        Resend makes one more attempt with the same body and id, freshly signed, to the URL set now.
      </p>
      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Deliveries</h2>
        {event.deliveries.map((delivery, index) => (
          <Delivery key={delivery.deliveryId} delivery={delivery} number={index + 1} frame={frame} />
        ))}
      </section>
      <section aria-labelledby="body-heading">
        <h2 id="body-heading">Body sent</h2>
        <p class="hint">The exact bytes every attempt sent; the signature covers them.</p>
        <pre class="api-integration-body">{event.body}</pre>
      </section>
    </Layout>
  );
}

function Delivery({
  delivery,
  number,
  frame,
}: {
  delivery: DeliveryLogEntry;
  number: number;
  frame: PageFrame;
}) {
  const time = (at: string | null) => (at ? <LocalTime at={at} timeZone={frame.timeZone} /> : null);
  const name = `Delivery ${number} (${TRIGGER_WORDS[delivery.trigger].toLowerCase()})`;
  return (
    <section aria-labelledby={`delivery-${number}`}>
      <h3 id={`delivery-${number}`}>
        {name}: {STATUS_WORDS[delivery.status]}
      </h3>
      <DetailsList
        rows={[
          ['Attempts', `${delivery.attemptsMade} of at most ${delivery.maxAttempts}`],
          ['Next attempt', delivery.status === 'pending' ? time(delivery.nextAttemptAt) : null],
          ['Finished', time(delivery.finishedAt)],
        ]}
      />
      {delivery.attempts.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <DataTable
          caption={`Attempts of delivery ${number}`}
          rowKey={(attempt) => String(attempt.attemptNumber)}
          rows={delivery.attempts}
          columns={[
            { header: 'Attempt', numeric: true, cell: (attempt) => attempt.attemptNumber },
            { header: 'Time', cell: (attempt) => time(attempt.attemptedAt) },
            { header: 'Status code', numeric: true, cell: (attempt) => statusCodeWords(attempt) },
            { header: 'Latency', numeric: true, cell: (attempt) => latencyWords(attempt) },
            { header: 'Result', cell: (attempt) => (attempt.delivered ? 'Delivered' : 'Failed') },
            { header: 'Error', cell: (attempt) => attempt.error ?? '—' },
            {
              header: 'URL',
              cell: (attempt) => (attempt.url ? <code class="api-integration-url">{attempt.url}</code> : '—'),
            },
          ]}
        />
      )}
    </section>
  );
}
