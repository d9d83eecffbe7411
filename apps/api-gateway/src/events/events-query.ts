import { FEED_EVENT_TYPES, FEED_PAGE_DEFAULT, FEED_PAGE_MAX } from '@payouts/events-feed';
import type { FeedEventType, FeedQuery } from '@payouts/events-feed';
import { invalidRequest } from '@payouts/http';

const KNOWN = new Set(['after', 'limit', 'types']);
const EVENT_ID = /^evt_[0-9a-z_]{1,64}$/;

/** GET /api/events' query: `after`, `limit` (capped, never refused above the maximum) and `types`. */
export function parseEventsQuery(query: Record<string, unknown>): FeedQuery {
  for (const name of Object.keys(query)) {
    if (!KNOWN.has(name)) throw invalidRequest(`${name} is not a parameter of this list`, name);
  }
  const after = single(query, 'after');
  if (after !== undefined && !EVENT_ID.test(after))
    throw invalidRequest('after must be an event id (evt_…)', 'after');
  return { after, limit: pageSize(single(query, 'limit')), types: eventTypes(single(query, 'types')) };
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '')
    throw invalidRequest(`${name} must be given once, not empty`, name);
  return value;
}

function pageSize(value: string | undefined): number {
  if (value === undefined) return FEED_PAGE_DEFAULT;
  if (!/^\d{1,12}$/.test(value) || Number(value) < 1) {
    throw invalidRequest('limit must be a whole number of at least 1', 'limit');
  }
  return Math.min(Number(value), FEED_PAGE_MAX);
}

function eventTypes(value: string | undefined): ReadonlySet<FeedEventType> | undefined {
  if (value === undefined) return undefined;
  const types = value.split(',').map((type) => type.trim());
  for (const type of types) {
    if (!(FEED_EVENT_TYPES as readonly string[]).includes(type)) {
      throw invalidRequest(`types must be a comma-separated list of ${FEED_EVENT_TYPES.join(', ')}`, 'types');
    }
  }
  return new Set(types as FeedEventType[]);
}
