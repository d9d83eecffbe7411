import { PostForm, SubmitButton } from '@payouts/web';
import type {
  AttemptLogEntry,
  DeliveryLogEntry,
  DeliveryStatus,
  DeliveryTrigger,
  EventLogEntry,
} from '@payouts/webhooks';
import { resendPath } from './api-integration-paths';

// The delivery log in words, for the API integration page and an event's page.

export const TRIGGER_WORDS: Record<DeliveryTrigger, string> = {
  automatic: 'Automatic',
  test: 'Test event',
  manual: 'Resend',
};

export const STATUS_WORDS: Record<DeliveryStatus, string> = {
  pending: 'Waiting',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The event's latest delivery (deliveries are oldest first). */
export function latestDelivery(event: EventLogEntry): DeliveryLogEntry | undefined {
  return event.deliveries[event.deliveries.length - 1];
}

/** The latest attempt of any of the event's deliveries. */
export function latestAttempt(event: EventLogEntry): AttemptLogEntry | undefined {
  let latest: AttemptLogEntry | undefined;
  for (const delivery of event.deliveries) {
    for (const attempt of delivery.attempts) {
      if (!latest || Date.parse(attempt.attemptedAt) >= Date.parse(latest.attemptedAt)) latest = attempt;
    }
  }
  return latest;
}

/** An attempt's HTTP status, or "No answer" when none came (refused, timed out, blocked). */
export function statusCodeWords(attempt: AttemptLogEntry): string {
  return attempt.statusCode === null ? 'No answer' : String(attempt.statusCode);
}

export function latencyWords(attempt: AttemptLogEntry): string {
  return `${attempt.latencyMs} ms`;
}

/** `Resend`: one more attempt of the event, same body and id, freshly signed. */
export function ResendForm({ eventId, csrfToken }: { eventId: string; csrfToken: string }) {
  return (
    <PostForm
      action={resendPath(eventId)}
      csrfToken={csrfToken}
      label={`Resend ${eventId}`}
      class="api-integration-resend"
    >
      <SubmitButton class="secondary">
        Resend<span class="visually-hidden"> event {eventId}</span>
      </SubmitButton>
    </PostForm>
  );
}
