import { DASHBOARD_PATHS } from '@payouts/web';
import { EVENT_LOG_PAGE } from '@payouts/webhooks';

const ROOT = DASHBOARD_PATHS.apiIntegration;

/** The addresses of Settings → API integration: the page, its forms and the event pages. */
export const API_INTEGRATION_PATHS = {
  page: ROOT,
  saveUrl: `${ROOT}/url`,
  sendTest: `${ROOT}/test`,
  stopSending: `${ROOT}/stop`,
  rotateSecret: `${ROOT}/rotate-secret`,
  enable: `${ROOT}/enable`,
  event: `${ROOT}/events/:event_id`,
  resend: `${ROOT}/events/:event_id/resend`,
} as const;

/** An event id as the store makes them (evt_… and evt_test_…): anything else is no page. */
export const EVENT_ID_PATTERN = /^evt_[0-9a-z_]{1,64}$/;

export const eventPath = (eventId: string): string => `${ROOT}/events/${encodeURIComponent(eventId)}`;
export const resendPath = (eventId: string): string => `${eventPath(eventId)}/resend`;

/** The form field of the webhook URL. */
export const URL_FIELD = 'url';

/** Events per page of the delivery log: the JSON API's default page. */
export const EVENTS_PER_PAGE = EVENT_LOG_PAGE.default;
/** The JSON API's largest offset, kept for the page's `offset`. */
export const MAX_EVENT_OFFSET = 1_000_000;

/** Outcomes carried across a redirect (`?notice=`) to the API integration page. */
export const PAGE_NOTICES = {
  test_sent:
    'Test event queued: a payout.test event is being sent to your URL now. Reload the page to see its attempt in the delivery log.',
  stopped:
    'Stopped sending: the webhook URL and its signing secret were removed, and deliveries that were waiting were dropped.',
  not_set: 'No webhook URL was set for this environment: nothing changed.',
  enabled:
    'Endpoint enabled again: deliveries that were waiting are being sent now, and failures are counted afresh.',
  not_disabled: 'The endpoint was not disabled: nothing changed.',
} as const;

/** Outcomes carried across a redirect to an event's page. */
export const EVENT_NOTICES = {
  resent:
    'Resend queued: one more attempt with the same body and id, freshly signed. Reload the page to see it below.',
} as const;
