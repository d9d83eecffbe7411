/**
 * The merchant's events feed (GET /api/events, docs/integration.md#events-feed): every change a
 * merchant may see, oldest first, each with the resource as its own Get answered it at that moment.
 */
export const FEED_EVENT_TYPES = [
  'payout.created',
  'payout.updated',
  'order.created',
  'order.paid',
  'order.expired',
  'settlement.created',
  'settlement.paid',
  'settlement.failed',
  'balance.transaction',
] as const;
export type FeedEventType = (typeof FEED_EVENT_TYPES)[number];

export const FEED_PAGE_DEFAULT = 50;
export const FEED_PAGE_MAX = 200;

export interface FeedEvent {
  id: string;
  type: FeedEventType;
  /** When the event was recorded (committed to the event store), ISO 8601 UTC. */
  created_at: string;
  data: object;
}

export interface FeedPage {
  data: FeedEvent[];
  has_more: boolean;
  /** The id to pass as `after` next: the page's last event, or the `after` asked for when the page is empty. */
  next_after: string | null;
}

/** Whose feed: one account in one environment, never more. */
export interface FeedOwner {
  accountId: string;
  environment: 'production' | 'sandbox';
}

/**
 * One feed event with its place: `index` among the feed events one stored event gives (a ledger
 * event can give a settlement and its balance transaction), so a cursor can stop between them.
 */
export interface FeedItem {
  event: FeedEvent;
  index: number;
}
