import type { SqlQueryable } from '@payouts/database';

export { DuplicateEventIdError, StreamVersionConflictError } from './errors';

/**
 * The event store port. The PostgreSQL adapter (embedded PGlite or a server) is the default; any
 * other adapter must pass the same contract suite (`testing/event-store.contract.ts`).
 */

/**
 * A number is the stream's current version (what `readStream` returned); 0 is the version of a
 * stream that does not exist, so it means the same as 'no_stream'. 'any' skips the check.
 */
export type ExpectedVersion = number | 'no_stream' | 'any';

export interface NewEvent {
  type: string;
  schemaVersion: number;
  /** Stored as JSON (jsonb): what JSON.stringify makes of it is what readers get back. */
  data: unknown;
  metadata?: Record<string, unknown>;
  /** A UUID; generated with crypto.randomUUID when absent. Unique across the whole store. */
  eventId?: string;
}

export interface StreamAppend {
  streamId: string;
  streamType: string;
  expectedVersion: ExpectedVersion;
  /** At least one event. */
  events: NewEvent[];
}

/** A position in the global feed: the writer's transaction id (xid8) and the global position, as decimal strings. */
export interface FeedCheckpoint {
  transactionId: string;
  position: string;
}

/** Before the first event of the feed. */
export const FEED_START: FeedCheckpoint = Object.freeze({ transactionId: '0', position: '0' });

/**
 * The feed as one moment saw it (feedSnapshot): readFeed with `asOf` reads exactly the events
 * committed for it, however long the reading takes and whatever commits meanwhile. The token is
 * the store's own (a PostgreSQL snapshot on the PostgreSQL store): pass it back as it came.
 */
export interface FeedSnapshot {
  readonly token: string;
  /** The last event committed for the snapshot, in feed order; null when there was none. */
  readonly head: FeedCheckpoint | null;
}

export interface RecordedEvent {
  eventId: string;
  streamId: string;
  streamType: string;
  /** 1 for the first event of a stream, then consecutive. */
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: Record<string, unknown>;
  /** Decimal string (bigint): unique, increasing in insertion order, with gaps; not the feed order. */
  globalPosition: string;
  /** Decimal string (xid8) of the transaction that wrote the event. */
  transactionId: string;
  recordedAt: Date;
  /**
   * recorded_at in UTC with its microseconds (`2026-03-01T12:00:00.123456Z`): always on what
   * readFeed and a subscription hand out, not on an append's own answer nor (on the PostgreSQL
   * store) a stream read. The audit chain's links cover the time as stored, which a Date cannot hold.
   */
  recordedAtMicros?: string;
  /** This event's place in the feed: pass it to readFeed to continue after it. */
  checkpoint: FeedCheckpoint;
}

/**
 * An event as an append decided it, before the database has answered: everything but the position
 * the database assigns (see AppendOptions.inTransaction).
 */
export type PendingEvent = Omit<
  RecordedEvent,
  'globalPosition' | 'transactionId' | 'recordedAt' | 'recordedAtMicros' | 'checkpoint'
>;

export interface AppendResult {
  /** One entry per StreamAppend, in the order given, with the stream's new version. */
  streams: { streamId: string; version: number }[];
  /** Every event written, in global position order. */
  events: RecordedEvent[];
}

export interface AppendOptions {
  /**
   * Runs inside the same database transaction after the events are written, for inline
   * (read-your-writes) projections. If it throws, nothing is written and append rethrows.
   *
   * Its statements run after the append's, but when every expected version is known (no 'any') it
   * is called before the database has answered them, so its statements travel with the append's
   * in one round trip; that is why it gets pending events, without positions. An append that
   * fails (a conflict) still wins over whatever the hook then reports.
   */
  inTransaction?: (tx: SqlQueryable, events: PendingEvent[]) => Promise<void>;
}

export interface ReadStreamOptions {
  fromVersion?: number;
  toVersion?: number;
  /**
   * A transaction of the store's own database that the caller holds (a subscription handler's,
   * an append hook's): the read runs inside it. On the embedded database a read on another
   * connection would wait for that transaction to end. A store whose events live elsewhere ignores it.
   */
  within?: SqlQueryable;
}

/** Versions `fromVersion` to `toVersion` (both included) of one stream, for readStreams. */
export interface StreamRange {
  streamId: string;
  fromVersion: number;
  toVersion: number;
}

export interface ReadFeedOptions {
  /**
   * Reads the feed as that snapshot saw it: every event committed for it (including any that the
   * live feed still holds back behind an older transaction in flight), none committed after.
   */
  asOf?: FeedSnapshot;
}

export interface SubscribeOptions {
  /** Names the durable checkpoint; processes sharing an id take turns (one batch at a time). */
  subscriptionId: string;
  /**
   * Called with each batch inside the transaction that also advances the checkpoint: writes made
   * through `tx` commit together with it (exactly-once effect). Throwing rolls the batch back; it
   * is retried after a backoff. Use only `tx` for database work here: on the embedded database
   * another connection would wait for this transaction.
   */
  handle: (events: RecordedEvent[], tx: SqlQueryable) => Promise<void>;
  /** Events per batch; default 100, at most EVENT_STORE_LIMITS.maxBatchSize. */
  batchSize?: number;
  /** How often an idle subscription looks for new events; default 50 ms. */
  pollIntervalMs?: number;
  /**
   * Whether this store's own appends wake the subscription at once (default true). False for a
   * subscriber nobody waits on (the audit's chain keeper): it then only polls, in larger batches,
   * instead of running a batch beside nearly every append of the process.
   */
  wakeOnAppend?: boolean;
  /** Aborting stops the subscription, like stop(). */
  signal?: AbortSignal;
}

export interface EventStore {
  /**
   * Appends to every stream given, atomically: all or nothing. A stream whose version is not the
   * expected one fails the whole call with StreamVersionConflictError naming that stream.
   */
  append(appends: StreamAppend[], options?: AppendOptions): Promise<AppendResult>;
  /**
   * The stream's events from `fromVersion` (default 1) to `toVersion` (default: the last), in
   * version order, and its current version. Version 0 and no events when the stream does not exist.
   */
  readStream(
    streamId: string,
    options?: ReadStreamOptions,
  ): Promise<{ version: number; events: RecordedEvent[] }>;
  /**
   * The events of several stream ranges in one read (1 to EVENT_STORE_LIMITS.maxStreamsPerRead
   * ranges, each stream at most once): grouped by range in the order given, each in version
   * order. A range past a stream's end, or of a stream that does not exist, gives what there is.
   * For a reader that needs the start of many streams at once (the audit's replay, for every
   * payout and order of a batch that began earlier); `within` as for readStream.
   */
  readStreams(ranges: readonly StreamRange[], options?: { within?: SqlQueryable }): Promise<RecordedEvent[]>;
  /**
   * The ids of the streams of one type, in id order (by code point), strictly after `after`
   * (default: from the first), at most `limit` (1 to EVENT_STORE_LIMITS.maxStreamIdsPage): a page
   * of a category, for a job that visits every ledger, say.
   */
  streamIds(streamType: string, options: { after?: string; limit: number }): Promise<string[]>;
  /**
   * How many committed events the subscription has not processed yet, counting no further than
   * `cap` (1 to EVENT_STORE_LIMITS.maxFeedPage): a readiness probe's measure of its lag, kept cheap.
   */
  subscriptionLag(subscriptionId: string, cap: number): Promise<number>;
  /**
   * Committed events strictly after `after`, in feed order (transaction id, then global position),
   * at most `limit` (1 to EVENT_STORE_LIMITS.maxFeedPage).
   * Never returns an event while an older transaction could still commit one before it, so a
   * reader that checkpoints on the last event it got never skips an event committed late.
   * With `asOf`, the feed as that snapshot saw it instead (ReadFeedOptions).
   */
  readFeed(after: FeedCheckpoint, limit: number, options?: ReadFeedOptions): Promise<RecordedEvent[]>;
  /**
   * The feed as committed at this moment, and its last event: `within` a transaction of the
   * store's database that the caller holds, the moment that transaction's reads see (under
   * REPEATABLE READ, its whole snapshot), so that what the caller reads there and what readFeed
   * returns `asOf` it are of the same moment (the audit's replay copies the live read models so).
   */
  feedSnapshot(options?: { within?: SqlQueryable }): Promise<FeedSnapshot>;
  /**
   * The feed place of the committed event at this global position (a decimal string), or null
   * when there is none: where a reader that knows an event by its position starts or resumes.
   */
  checkpointAt(globalPosition: string): Promise<FeedCheckpoint | null>;
  /** Follows the feed from the subscription's durable checkpoint until stopped. */
  subscribe(options: SubscribeOptions): FeedSubscription;
  /**
   * FEED_START when the subscription has not committed a batch yet. `within` as for readStream:
   * the checkpoint as that transaction sees it (the moment of a feedSnapshot taken there).
   */
  loadCheckpoint(subscriptionId: string, options?: { within?: SqlQueryable }): Promise<FeedCheckpoint>;
  /** Stops this store's subscriptions. Does not close the database it was given. */
  close?(): Promise<void>;
}

export interface FeedSubscription {
  /** Resolves when the subscription has processed everything committed before the call; rejects if it is stopped first. */
  caughtUp(): Promise<void>;
  /** Wakes an idle subscription at once (the store calls it after each of its own appends). */
  notify(): void;
  /** Finishes (commits or rolls back) the batch in progress, then stops. */
  stop(): Promise<void>;
  /** The last checkpoint this subscription committed or loaded. */
  readonly checkpoint: FeedCheckpoint;
  /** The error of the last failed attempt; null once a batch succeeds again. */
  readonly lastError: Error | null;
}

/** Bounds on every call (Tiger style): a larger request is a programming error, refused up front. */
export const EVENT_STORE_LIMITS = Object.freeze({
  maxStreamsPerAppend: 100,
  maxEventsPerAppend: 10_000,
  maxFeedPage: 10_000,
  maxStreamIdsPage: 10_000,
  maxStreamsPerRead: 10_000,
  maxBatchSize: 10_000,
  maxIdLength: 255,
});
