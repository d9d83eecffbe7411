import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '@payouts/clock';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { compareCheckpoints, FEED_START } from '@payouts/event-store';
import type { EventStore, FeedCheckpoint, RecordedEvent } from '@payouts/event-store';
import { ApiError, invalidRequest } from '@payouts/http';
import { APP_CONFIG, CLOCK, EVENT_STORE, READ_MODELS, SQL_CLIENT } from '@payouts/platform';
import { READ_MODEL_SUBSCRIPTION_ID } from '@payouts/read-models';
import type { ReadModelClient } from '@payouts/read-models';
import { FeedCursors } from './feed-cursor';
import type { FeedEventType, FeedItem, FeedOwner, FeedPage } from './feed-event';
import { MerchantFeedItems } from './merchant-feed-items';

export interface FeedQuery {
  after?: string;
  /** 1 to FEED_PAGE_MAX. */
  limit: number;
  /** Only these types; every type when absent. */
  types?: ReadonlySet<FeedEventType>;
}

/** Stored events read from the feed per step while a page is filled. */
const SCAN_STEP = 500;
const DAY_MS = 86_400_000;

/**
 * The events feed of one account and environment (docs/integration.md#events-feed), read from the
 * event store's own feed through its port: the global feed in its committed order, the owner's
 * events picked out of it. Nothing is copied: a feed event's id names the stored event it comes
 * from, and its data is folded or looked up when asked for.
 *
 * The feed stops at the read models' checkpoint (the projector's): past it a balance transaction
 * or a settlement has no row yet. The projector follows the feed in order and commits as it goes,
 * so the feed only ever grows at its end: paging on with `next_after` never skips or repeats an
 * event, whatever commits meanwhile.
 */
@Injectable()
export class EventsFeed {
  private readonly items: MerchantFeedItems;
  private readonly cursors: FeedCursors;
  private readonly retentionMs: number;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SQL_CLIENT) db: SqlClient,
    @Inject(READ_MODELS) readModels: ReadModelClient,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.items = new MerchantFeedItems(store, db.reads, readModels);
    this.cursors = new FeedCursors(store, db.reads, this.items);
    this.retentionMs = config.eventsRetentionDays * DAY_MS;
  }

  async page(owner: FeedOwner, query: FeedQuery): Promise<FeedPage> {
    // Real time in both environments: the events' own times are real commit times, so the sandbox
    // clock (which the operator moves forward) would hide every new event once moved past the
    // retention. Retention is how long the service keeps them, not a sandbox scenario.
    const keptSince = new Date(this.clock.now('production').getTime() - this.retentionMs);
    const head = await this.store.loadCheckpoint(READ_MODEL_SUBSCRIPTION_ID);
    const wanted = (item: FeedItem) => query.types === undefined || query.types.has(item.event.type);
    const found: FeedItem[] = [];
    let from: FeedCheckpoint = FEED_START;
    if (query.after !== undefined) {
      const cursor = await this.cursors.resolve(owner, query.after);
      if (cursor === null) throw invalidRequest('after names no event of this feed', 'after');
      if (cursor.event.recordedAt < keptSince) {
        throw new ApiError(
          410,
          'cursor_expired',
          'the after event is older than the feed keeps events; start again without after',
          'after',
        );
      }
      if (compareCheckpoints(cursor.event.checkpoint, head) > 0) return emptyPage(query.after);
      found.push(...cursor.rest.filter(wanted));
      from = cursor.event.checkpoint;
    }
    while (found.length <= query.limit) {
      const step = await this.store.readFeed(from, SCAN_STEP);
      const visible = step.filter((event) => compareCheckpoints(event.checkpoint, head) <= 0);
      if (visible.length === 0) break;
      const kept = visible.filter((event: RecordedEvent) => event.recordedAt >= keptSince);
      found.push(...(await this.items.of(owner, kept)).filter(wanted));
      from = visible[visible.length - 1]!.checkpoint;
      if (visible.length < SCAN_STEP) break;
    }
    const data = found.slice(0, query.limit).map((item) => item.event);
    return {
      data,
      has_more: found.length > query.limit,
      next_after: data.length > 0 ? data[data.length - 1]!.id : (query.after ?? null),
    };
  }
}

const emptyPage = (after: string): FeedPage => ({ data: [], has_more: false, next_after: after });
