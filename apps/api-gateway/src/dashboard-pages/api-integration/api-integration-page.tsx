import {
  CopyField,
  DataTable,
  DetailsList,
  EmptyState,
  Field,
  hrefWith,
  Layout,
  LocalTime,
  Notice,
  PageFrame,
  Pagination,
  PostForm,
  SubmitButton,
} from '@payouts/web';
import type { EventLogEntry, WebhookEndpoint } from '@payouts/webhooks';
import { API_INTEGRATION_PATHS, eventPath, URL_FIELD } from './api-integration-paths';
import {
  latencyWords,
  latestAttempt,
  latestDelivery,
  ResendForm,
  STATUS_WORDS,
  statusCodeWords,
} from './delivery-words';

export interface PageMessage {
  kind: 'success' | 'error' | 'info';
  text: string;
}

/** A secret shown once, in the answer to the form that made it (never in a URL). */
export interface ShownSecret {
  secret: string;
  /** Set after a rotation: until then the replaced secret signs too. */
  previousSecretExpiresAt: string | null;
}

export interface EventLogPage {
  total: number;
  limit: number;
  offset: number;
  data: readonly EventLogEntry[];
}

export interface ApiIntegrationPageProps {
  frame: PageFrame;
  endpoint: WebhookEndpoint | null;
  log: EventLogPage;
  message?: PageMessage | null;
  shownSecret?: ShownSecret | null;
  /** The URL field as sent, when the form is shown again with its error. */
  urlValue?: string;
  urlError?: string | null;
}

const ENVIRONMENT_WORDS = { production: 'production', sandbox: 'sandbox' } as const;

/**
 * Settings → API integration: the payout webhook endpoint of the session's environment, its
 * actions (save the URL, send a test event, rotate the secret, enable again, stop sending) and
 * the delivery log, newest first.
 */
export function ApiIntegrationPage(props: ApiIntegrationPageProps) {
  const { frame, endpoint } = props;
  return (
    <Layout title="API integration" current="apiIntegration" frame={frame} path={API_INTEGRATION_PATHS.page}>
      {props.message ? <Notice kind={props.message.kind}>{props.message.text}</Notice> : null}
      {props.shownSecret ? <SecretOnce shown={props.shownSecret} timeZone={frame.timeZone} /> : null}
      <section aria-labelledby="webhook-heading">
        <h2 id="webhook-heading">Payout webhook</h2>
        <p>
          When a payout in {ENVIRONMENT_WORDS[frame.environment]} is paid, a signed{' '}
          <code>payout.updated</code> event is sent to this URL. One URL per environment; the other
          environment has its own.
        </p>
        {endpoint ? (
          <EndpointState endpoint={endpoint} frame={frame} />
        ) : (
          <EmptyState title="Not sending: no webhook URL is set">
            Nothing is sent. Enter your receiver’s https address below and save it to start receiving payout
            webhooks.
          </EmptyState>
        )}
      </section>
      <section aria-labelledby="url-heading">
        <h2 id="url-heading">{endpoint ? 'Change the URL' : 'Set the URL'}</h2>
        <PostForm action={API_INTEGRATION_PATHS.saveUrl} csrfToken={frame.csrfToken} label="Webhook URL">
          <Field
            name={URL_FIELD}
            label="Webhook URL"
            type="url"
            inputMode="url"
            autocomplete="url"
            required
            value={props.urlValue ?? endpoint?.url ?? ''}
            error={props.urlError}
            hint={
              endpoint
                ? 'An https address whose host is public. Saving makes a new signing secret at once (the old one stops signing): to keep the URL and overlap the secrets, use Rotate secret.'
                : 'An https address whose host is public, for example https://shop.example.com/webhooks/payouts. Saving shows the signing secret once.'
            }
          />
          <SubmitButton class="primary">Save URL</SubmitButton>
        </PostForm>
      </section>
      <DeliveryLog log={props.log} frame={frame} hasEndpoint={endpoint !== null} />
    </Layout>
  );
}

function SecretOnce({ shown, timeZone }: { shown: ShownSecret; timeZone: string }) {
  return (
    <section aria-labelledby="secret-heading" class="api-integration-secret">
      <h2 id="secret-heading">
        {shown.previousSecretExpiresAt ? 'Your new signing secret' : 'Your signing secret'}
      </h2>
      <p class="api-integration-warning">
        Copy it now and keep it in your receiver’s configuration: it is shown this once and never again. If
        you lose it, rotate the secret.
      </p>
      {shown.previousSecretExpiresAt ? (
        <p>
          Until <LocalTime at={shown.previousSecretExpiresAt} timeZone={timeZone} />, every delivery is signed
          with both the old and the new secret (two <code>v1</code> signatures in{' '}
          <code>X-Service-Payout-Signature</code>). Put the new secret in your receiver before then.
        </p>
      ) : null}
      <CopyField
        name="secret"
        label="Signing secret"
        value={shown.secret}
        hint="Verify each delivery’s X-Service-Payout-Signature with it."
      />
    </section>
  );
}

function EndpointState({ endpoint, frame }: { endpoint: WebhookEndpoint; frame: PageFrame }) {
  const time = (at: string | null) => (at ? <LocalTime at={at} timeZone={frame.timeZone} /> : null);
  return (
    <>
      {endpoint.disabledAt ? (
        <div class="api-integration-disabled" role="alert">
          <p class="api-integration-disabled-title">Deliveries to this URL are paused</p>
          <p>
            Paused since {time(endpoint.disabledAt)}. {endpoint.disabledReason}
          </p>
          <p>
            Events keep waiting and nothing is lost. Fix your receiver, then press Re-enable: everything
            waiting is sent at once.
          </p>
          <PostForm action={API_INTEGRATION_PATHS.enable} csrfToken={frame.csrfToken} label="Re-enable">
            <SubmitButton class="primary">Re-enable</SubmitButton>
          </PostForm>
        </div>
      ) : null}
      <DetailsList
        rows={[
          ['URL', <code class="api-integration-url">{endpoint.url}</code>],
          ['State', endpoint.disabledAt ? 'Disabled automatically (deliveries paused)' : 'Sending'],
          ['Saved', time(endpoint.createdAt)],
          ['Failing since', time(endpoint.failingSince)],
          ['Secret rotated', time(endpoint.secretRotatedAt)],
          ['Old secret also signs until', time(endpoint.previousSecretExpiresAt)],
        ]}
      />
      {endpoint.failingSince && !endpoint.disabledAt ? (
        <p class="api-integration-failing">
          Attempts to this URL have failed since {time(endpoint.failingSince)}. After 5 days of failures it is
          disabled automatically.
        </p>
      ) : null}
      <div class="actions">
        <PostForm action={API_INTEGRATION_PATHS.sendTest} csrfToken={frame.csrfToken} label="Send test event">
          <SubmitButton class="secondary">Send test event</SubmitButton>
        </PostForm>
        <PostForm
          action={API_INTEGRATION_PATHS.rotateSecret}
          csrfToken={frame.csrfToken}
          label="Rotate secret"
        >
          <SubmitButton class="secondary">Rotate secret</SubmitButton>
        </PostForm>
        <PostForm action={API_INTEGRATION_PATHS.stopSending} csrfToken={frame.csrfToken} label="Stop sending">
          <SubmitButton class="danger">Stop sending</SubmitButton>
        </PostForm>
      </div>
      <p class="hint">
        Send test event sends a <code>payout.test</code> event (no payout behind it). Rotate secret makes a
        new secret; the old one keeps signing for 24 hours. Stop sending removes the URL and its secret and
        drops deliveries that are waiting.
      </p>
    </>
  );
}

function DeliveryLog({
  log,
  frame,
  hasEndpoint,
}: {
  log: EventLogPage;
  frame: PageFrame;
  hasEndpoint: boolean;
}) {
  return (
    <section aria-labelledby="log-heading">
      <h2 id="log-heading">Delivery log</h2>
      {log.total === 0 ? (
        <EmptyState title="No events yet">
          {hasEndpoint
            ? 'Events appear here when a payout is paid. Press Send test event above to check your receiver now.'
            : 'Set a webhook URL above, then press Send test event to check your receiver.'}
        </EmptyState>
      ) : (
        <>
          {log.data.length === 0 ? (
            <p>
              There are no events on this page.{' '}
              <a href={API_INTEGRATION_PATHS.page}>Go to the newest events</a>.
            </p>
          ) : (
            <DataTable
              caption={`Webhook events in ${frame.environment}, newest first`}
              rowKey={(event) => event.eventId}
              rows={log.data}
              columns={[
                {
                  header: 'Event',
                  cell: (event) => (
                    <a href={eventPath(event.eventId)} class="api-integration-id">
                      {event.eventId}
                    </a>
                  ),
                },
                { header: 'Type', cell: (event) => <code>{event.type}</code> },
                {
                  header: 'Created',
                  cell: (event) => <LocalTime at={event.createdAt} timeZone={frame.timeZone} />,
                },
                {
                  header: 'Delivery',
                  cell: (event) => {
                    const delivery = latestDelivery(event);
                    return delivery ? STATUS_WORDS[delivery.status] : '—';
                  },
                },
                {
                  header: 'Last attempt',
                  cell: (event) => {
                    const attempt = latestAttempt(event);
                    return attempt ? (
                      <LocalTime at={attempt.attemptedAt} timeZone={frame.timeZone} />
                    ) : (
                      'None yet'
                    );
                  },
                },
                {
                  header: 'Status code',
                  numeric: true,
                  cell: (event) => {
                    const attempt = latestAttempt(event);
                    return attempt ? statusCodeWords(attempt) : '—';
                  },
                },
                {
                  header: 'Latency',
                  numeric: true,
                  cell: (event) => {
                    const attempt = latestAttempt(event);
                    return attempt ? latencyWords(attempt) : '—';
                  },
                },
                { header: 'Error', cell: (event) => latestAttempt(event)?.error ?? '—' },
                {
                  header: 'Action',
                  cell: (event) => <ResendForm eventId={event.eventId} csrfToken={frame.csrfToken} />,
                },
              ]}
            />
          )}
          <Pagination
            total={log.total}
            offset={log.offset}
            shown={log.data.length}
            limit={log.limit}
            noun="events"
            hrefFor={(offset) => hrefWith(API_INTEGRATION_PATHS.page, {}, { offset: offset || undefined })}
          />
        </>
      )}
    </section>
  );
}
