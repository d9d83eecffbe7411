import type { QueryParameters, SuccessBody } from '../api-types';
import type { Transport } from '../http/transport';

type ListEventsParameters = QueryParameters<'/api/events', 'get'>;
export type EventsPage = SuccessBody<'/api/events', 'get'>;
export type FeedEvent = EventsPage['data'][number];
export type FeedEventType = FeedEvent['type'];

export interface ListEventsQuery {
  /** An event id (a page's `next_after`): the events committed after it. Absent: from the first kept. */
  after?: ListEventsParameters['after'];
  /** Page size, 1 to 200 (default 50). */
  limit?: ListEventsParameters['limit'];
  /** Only these types (sent comma-separated); all when absent. */
  types?: readonly FeedEventType[] | ListEventsParameters['types'];
}

/** The account's events feed in one environment, with a payout credential (scope `payouts:read`). */
export class Events {
  constructor(private readonly http: Transport) {}

  /** One page, oldest first; pass its `next_after` as `after` for the next. */
  list(query: ListEventsQuery = {}): Promise<EventsPage> {
    const { types, ...rest } = query;
    return this.http.request({
      method: 'GET',
      path: '/api/events',
      query: { ...rest, types: typeof types === 'string' || types === undefined ? types : types.join(',') },
    });
  }

  /**
   * Every event after `after` (from the first kept when absent), page after page while the service
   * says more follow (`has_more`), each page from the last one's `next_after`. Ends at the events
   * there are now: keep the last event's id to carry on from there later.
   */
  async *listAll(query: ListEventsQuery = {}): AsyncGenerator<FeedEvent, void, undefined> {
    let after = query.after;
    for (;;) {
      const page = await this.list({ ...query, after });
      yield* page.data;
      // An empty page or an unmoved cursor cannot lead anywhere new, whatever `has_more` says.
      if (!page.has_more || page.data.length === 0 || page.next_after === null || page.next_after === after) {
        return;
      }
      after = page.next_after;
    }
  }
}
