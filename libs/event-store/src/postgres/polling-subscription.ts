import { SqlClient, SqlQueryable } from '@payouts/database';
import {
  EVENT_STORE_LIMITS,
  FEED_START,
  FeedCheckpoint,
  FeedSubscription,
  RecordedEvent,
  SubscribeOptions,
} from '../event-store.port';
import { compareCheckpoints } from '../feed-checkpoint';
import { loadCheckpointRow, lockCheckpoint, saveCheckpoint } from './read-sql';

/**
 * Where a subscription reads the feed: the events table of this database, or another store whose
 * subscribers keep their checkpoints here (the EventStoreDB adapter).
 */
export interface SubscriptionFeed {
  /** readFeed; `within` is the batch's transaction, which a feed in this database reads in. */
  read(after: FeedCheckpoint, limit: number, within?: SqlQueryable): Promise<RecordedEvent[]>;
  /** The last committed event's place, null on an empty feed. */
  lastCommitted(): Promise<FeedCheckpoint | null>;
}

const DEFAULT_BATCH_SIZE = 100;
const DEFAULT_POLL_INTERVAL_MS = 50;
const MAX_POLL_INTERVAL_MS = 60_000;
/** After a failed batch: 100 ms, doubling, at most 5 s between attempts. A poison event stops the line, visibly. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

interface Waiter {
  target: FeedCheckpoint;
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Sleeper {
  /** Whether notify() may cut the pause short (not a retry backoff). */
  wakeable: boolean;
  wake: () => void;
}

/**
 * Follows the feed from a durable checkpoint. Each batch runs in one transaction: lock the
 * subscription, read its checkpoint, read the events after it, call the handler, save the new
 * checkpoint. So the handler's writes and the checkpoint commit together, and processes that
 * share a subscription id take turns instead of processing a batch twice.
 */
export class PollingSubscription implements FeedSubscription {
  private current: FeedCheckpoint = FEED_START;
  private loaded = false;
  private error: Error | null = null;
  private stopping = false;
  private finished = false;
  private wakeRequested = false;
  private sleeper: Sleeper | null = null;
  private readonly waiters: Waiter[] = [];
  private readonly subscriptionId: string;
  private readonly handle: (events: RecordedEvent[], tx: SqlQueryable) => Promise<void>;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly done: Promise<void>;

  constructor(
    private readonly db: SqlClient,
    /** The same database for statements outside a transaction (prepared on a server). */
    private readonly statements: SqlQueryable,
    options: SubscribeOptions,
    private readonly onStopped: (subscription: PollingSubscription) => void,
    private readonly feed: SubscriptionFeed,
  ) {
    const {
      subscriptionId,
      batchSize = DEFAULT_BATCH_SIZE,
      pollIntervalMs = DEFAULT_POLL_INTERVAL_MS,
    } = options;
    if (
      typeof subscriptionId !== 'string' ||
      subscriptionId.length === 0 ||
      subscriptionId.length > EVENT_STORE_LIMITS.maxIdLength
    ) {
      throw new RangeError(
        `subscriptionId must be a string of 1 to ${EVENT_STORE_LIMITS.maxIdLength} characters`,
      );
    }
    if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > EVENT_STORE_LIMITS.maxBatchSize) {
      throw new RangeError(`batchSize must be an integer from 1 to ${EVENT_STORE_LIMITS.maxBatchSize}`);
    }
    if (!Number.isFinite(pollIntervalMs) || pollIntervalMs < 1 || pollIntervalMs > MAX_POLL_INTERVAL_MS) {
      throw new RangeError(`pollIntervalMs must be from 1 to ${MAX_POLL_INTERVAL_MS}`);
    }
    this.subscriptionId = subscriptionId;
    this.handle = options.handle;
    this.batchSize = batchSize;
    this.pollIntervalMs = pollIntervalMs;
    if (options.signal?.aborted) this.stopping = true;
    options.signal?.addEventListener('abort', () => void this.stop(), { once: true });
    this.done = this.run();
  }

  get checkpoint(): FeedCheckpoint {
    return this.current;
  }

  get lastError(): Error | null {
    return this.error;
  }

  notify(): void {
    this.wakeRequested = true;
    if (this.sleeper?.wakeable) this.sleeper.wake();
  }

  async caughtUp(): Promise<void> {
    if (this.finished || this.stopping) throw new Error(`subscription ${this.subscriptionId} is stopped`);
    const target = await this.feed.lastCommitted();
    if (target === null) return;
    await new Promise<void>((resolve, reject) => {
      if (this.finished) {
        reject(new Error(`subscription ${this.subscriptionId} stopped before catching up`));
        return;
      }
      this.waiters.push({ target, resolve, reject });
      this.settleWaiters();
      this.notify();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.sleeper?.wake();
    await this.done;
  }

  /** Never rejects: every failure is recorded in lastError and retried until stop(). */
  private async run(): Promise<void> {
    await Promise.resolve(); // let the store register this subscription before it can stop
    let failures = 0;
    while (!this.stopping) {
      let processed: number;
      this.wakeRequested = false;
      try {
        if (!this.loaded) {
          this.current = await loadCheckpointRow(this.statements, this.subscriptionId);
          this.loaded = true;
        }
        processed = await this.step();
        failures = 0;
        this.error = null;
      } catch (error) {
        failures += 1;
        this.error = error instanceof Error ? error : new Error(String(error));
        await this.pause(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 16)), false);
        continue;
      }
      this.settleWaiters();
      if (processed < this.batchSize) await this.pause(this.pollIntervalMs, true);
    }
    this.finished = true;
    for (const waiter of this.waiters.splice(0)) {
      waiter.reject(new Error(`subscription ${this.subscriptionId} stopped before catching up`));
    }
    this.onStopped(this);
  }

  /** One batch; returns how many events it processed. */
  private async step(): Promise<number> {
    // A cheap look outside any transaction first, so an idle subscription takes no locks.
    const probe = await this.feed.read(this.current, 1);
    if (probe.length === 0) return 0;
    const outcome = await this.db.transaction(async (tx) => {
      const stored = await lockCheckpoint(tx, this.subscriptionId);
      const events = await this.feed.read(stored, this.batchSize, tx);
      const last = events[events.length - 1];
      if (!last) return { checkpoint: stored, processed: 0 }; // another process got there first
      await this.handle(events, tx);
      await saveCheckpoint(tx, this.subscriptionId, last.checkpoint);
      return { checkpoint: last.checkpoint, processed: events.length };
    });
    this.current = outcome.checkpoint;
    return outcome.processed;
  }

  private settleWaiters(): void {
    if (!this.loaded) return;
    for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
      const waiter = this.waiters[i];
      if (waiter && compareCheckpoints(this.current, waiter.target) >= 0) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  private pause(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopping || (wakeable && this.wakeRequested)) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleeper = null;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleeper = { wakeable, wake };
    });
  }
}
