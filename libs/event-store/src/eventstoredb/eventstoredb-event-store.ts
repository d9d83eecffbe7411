import {
  AllStreamSubscription,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  NO_STREAM,
  Position,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { SqlClient, SqlQueryable } from '@payouts/database';
import { AppendObserver, observeAppend } from '../append-observer';
import { EncodedAppend, encodeAppends } from '../encode-appends';
import { DuplicateEventIdError, EventStoreUnavailableError, StreamVersionConflictError } from '../errors';
import {
  AppendOptions,
  AppendResult,
  EVENT_STORE_LIMITS,
  EventStore,
  FEED_START,
  FeedCheckpoint,
  FeedSnapshot,
  FeedSubscription,
  PendingEvent,
  ReadFeedOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  StreamRange,
  SubscribeOptions,
} from '../event-store.port';
import { compareCheckpoints } from '../feed-checkpoint';
import {
  checkCount,
  checkedRanges,
  checkFeedPage,
  checkGlobalPosition,
  MAX_VERSION,
  versionBound,
} from '../port-arguments';
import { asStoredJson } from '../postgres/event-row';
import { PollingSubscription } from '../postgres/polling-subscription';
import { loadCheckpointRow } from '../postgres/read-sql';
import { checkpointOf, isUnreachable, positionOf, toEventData, toRecordedEvent } from './esdb-events';
import {
  claimEventIds,
  duplicateEventIdOf,
  forgetPendingAppends,
  indexedStreamIds,
  indexStreams,
  lockStreams,
  PendingAppend,
  pendingAppendsOf,
  recordPendingAppends,
  streamsLeftPending,
} from './pending-appends';

/** Events asked of $all per read; the store skips EventStoreDB's own among them. */
const ALL_PAGE = 1_000;
/** Events read back from the end of $all at a time, looking for the last of the port's. */
const TAIL_PAGE = 32;
/** Concurrent stream reads of one readStreams call. */
const READ_CONCURRENCY = 16;
const SNAPSHOT_TOKEN = /^esdb:(empty|[0-9]{1,20}:[0-9]{1,20})$/;

export interface EventStoreDbOptions {
  observer?: AppendObserver;
  /**
   * How often the recovery looks for appends decided and not written (a writer died, or
   * EventStoreDB was unreachable), and how old one must be to be taken over. 0: never.
   */
  recovery?: { intervalMs: number; olderThanMs: number };
}

const DEFAULT_RECOVERY = { intervalMs: 5_000, olderThanMs: 2_000 };

/** Raised inside the deciding transaction; turned into StreamVersionConflictError once it rolled back. */
class ConflictSignal extends Error {
  constructor(
    readonly append: EncodedAppend,
    readonly actualVersion: number,
  ) {
    super(`version conflict on stream ${append.streamId}`);
  }
}

/**
 * The event store on EventStoreDB (docs/eventstoredb.md): events live there, and the store keeps
 * its working state (stream locks, appends decided and not yet written, the list of each type's
 * streams, subscription checkpoints) in the PostgreSQL database beside the read models.
 *
 * EventStoreDB appends to one stream at a time, so a multi-stream append (a payout's reservation
 * on the ledger and the payout's own stream) is decided in one PostgreSQL transaction that holds
 * every stream's lock, reads each stream's end from EventStoreDB, runs the inTransaction hook and
 * records the events to write; after it commits, the streams are written in the order given (the
 * ledger first), each with its expected revision. A process that dies between two writes leaves
 * the rest recorded: the next writer of the stream writes it first, and the recovery does within
 * seconds. Nothing decided is lost, and nothing undecided is written.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly statements: SqlQueryable;
  private readonly subscriptions = new Set<PollingSubscription>();
  private readonly quietSubscriptions = new WeakSet<PollingSubscription>();
  private liveFeed: AllStreamSubscription | undefined;
  private recoveryTimer: NodeJS.Timeout | undefined;
  private recovering = false;
  private closed = false;
  /** The last failure of the recovery, for diagnosis; null after a clean pass. */
  lastRecoveryError: Error | null = null;

  constructor(
    connectionString: string,
    private readonly db: SqlClient,
    private readonly options: EventStoreDbOptions = {},
  ) {
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.statements = {
      query: (sql, params) => db.queryPrepared(sql, params),
      queryPrepared: (sql, params) => db.queryPrepared(sql, params),
    };
    const recovery = options.recovery ?? DEFAULT_RECOVERY;
    if (recovery.intervalMs > 0) {
      this.recoveryTimer = setInterval(() => void this.recover(recovery.olderThanMs), recovery.intervalMs);
      this.recoveryTimer.unref();
    }
  }

  append(appends: StreamAppend[], options: AppendOptions = {}): Promise<AppendResult> {
    return observeAppend(this.options.observer, () => this.appendUnobserved(appends, options));
  }

  private async appendUnobserved(appends: StreamAppend[], options: AppendOptions): Promise<AppendResult> {
    const encoded = encodeAppends(appends);
    const byId = new Map(encoded.map((append) => [append.streamId, append]));
    // Written in the caller's order: the ledger, where a reservation is decided, comes first.
    const inOrder = appends.map((append) => byId.get(append.streamId) as EncodedAppend);
    const streamIds = encoded.map((append) => append.streamId);
    let decided: PendingAppend[];
    try {
      decided = await this.db.transaction(async (tx) => {
        await lockStreams(tx, streamIds);
        await claimEventIds(
          tx,
          encoded.flatMap((append) => append.eventIds),
        );
        // An earlier decision on these streams that is not written yet goes first.
        await this.writePending(tx, await pendingAppendsOf(tx, streamIds));
        const versions = new Map<string, number>();
        await Promise.all(
          encoded.map(async (append) =>
            versions.set(append.streamId, await this.currentVersion(append.streamId)),
          ),
        );
        // Checked in stream id order, so a conflict names the same stream as on the other store.
        for (const append of encoded) checkExpected(append, versions.get(append.streamId) as number);
        const toWrite = inOrder.map((append) =>
          decidedAppend(append, versions.get(append.streamId) as number),
        );
        if (options.inTransaction) await options.inTransaction(tx, pendingEventsOf(toWrite));
        const ids = await recordPendingAppends(tx, toWrite);
        await indexStreams(tx, toWrite);
        return toWrite.map((append, index) => ({ ...append, id: ids[index] as string }));
      });
    } catch (error) {
      if (error instanceof ConflictSignal) {
        throw new StreamVersionConflictError(
          error.append.streamId,
          error.append.expectedVersion,
          error.actualVersion,
        );
      }
      const duplicate = duplicateEventIdOf(error);
      if (duplicate !== undefined) throw new DuplicateEventIdError(duplicate || undefined, { cause: error });
      throw isUnreachable(error) ? new EventStoreUnavailableError(error, true) : error;
    }
    const events: RecordedEvent[] = [];
    try {
      for (const append of decided) events.push(...(await this.writeDecided(append)));
      await forgetPendingAppends(
        this.statements,
        decided.map((append) => append.id),
      );
    } catch (error) {
      // Decided and recorded: the next writer of the stream, or the recovery, writes the rest.
      throw isUnreachable(error) ? new EventStoreUnavailableError(error, false) : error;
    }
    this.wakeSubscriptions();
    events.sort((a, b) => compareCheckpoints(a.checkpoint, b.checkpoint));
    return {
      streams: appends.map((append) => ({
        streamId: append.streamId,
        version: Math.max(
          0,
          ...events.filter((e) => e.streamId === append.streamId).map((e) => e.streamVersion),
        ),
      })),
      events,
    };
  }

  async readStream(
    streamId: string,
    options: ReadStreamOptions = {},
  ): Promise<{ version: number; events: RecordedEvent[] }> {
    const fromVersion = Math.max(1, versionBound('fromVersion', options.fromVersion ?? 1));
    const toVersion = versionBound('toVersion', options.toVersion ?? MAX_VERSION);
    const [events, version] = await Promise.all([
      fromVersion > toVersion ? [] : this.readRange(streamId, fromVersion, toVersion),
      this.currentVersion(streamId),
    ]);
    return { version, events };
  }

  async readStreams(ranges: readonly StreamRange[]): Promise<RecordedEvent[]> {
    const bounded = checkedRanges(ranges);
    const results = new Array<RecordedEvent[]>(ranges.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ranges.length) {
        const index = next++;
        const range = bounded[index] as StreamRange;
        const from = Math.max(1, range.fromVersion);
        results[index] =
          from > range.toVersion ? [] : await this.readRange(range.streamId, from, range.toVersion);
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, ranges.length) }, worker));
    return results.flat();
  }

  async streamIds(streamType: string, options: { after?: string; limit: number }): Promise<string[]> {
    const { after = '', limit } = options;
    checkCount('limit', limit, EVENT_STORE_LIMITS.maxStreamIdsPage);
    return indexedStreamIds(this.statements, streamType, after, limit);
  }

  async subscriptionLag(subscriptionId: string, cap: number): Promise<number> {
    checkCount('cap', cap, EVENT_STORE_LIMITS.maxFeedPage);
    const checkpoint = await loadCheckpointRow(this.statements, subscriptionId);
    return (await this.readAllAfter(checkpoint, cap)).length;
  }

  async readFeed(
    after: FeedCheckpoint,
    limit: number,
    options: ReadFeedOptions = {},
  ): Promise<RecordedEvent[]> {
    checkFeedPage(after, limit);
    if (options.asOf === undefined) return this.readAllAfter(after, limit);
    const match = SNAPSHOT_TOKEN.exec(options.asOf.token);
    if (!match) throw new RangeError('asOf must be a snapshot handed out by the store');
    if (match[1] === 'empty') return [];
    const [transactionId, position] = (match[1] as string).split(':') as [string, string];
    return this.readAllAfter(after, limit, { transactionId, position });
  }

  /**
   * $all is one order that only grows at its end, so the moment is its last event: what readFeed
   * returns asOf it is every event up to that one. `within` names a PostgreSQL transaction, which
   * holds no events here: the snapshot is taken when the call runs.
   */
  async feedSnapshot(): Promise<FeedSnapshot> {
    const head = await this.lastCommitted();
    return { token: head ? `esdb:${head.transactionId}:${head.position}` : 'esdb:empty', head };
  }

  async checkpointAt(globalPosition: string): Promise<FeedCheckpoint | null> {
    checkGlobalPosition(globalPosition);
    const prepare = BigInt(globalPosition);
    // An event's commit position is at least its prepare position: reading from (p, p) reaches it.
    let found: FeedCheckpoint | null = null;
    for await (const resolved of this.reachable(() =>
      this.client.readAll({ fromPosition: { commit: prepare, prepare }, maxCount: 64, direction: FORWARDS }),
    )) {
      const event = toRecordedEvent(resolved);
      if (event && event.globalPosition === globalPosition) found ??= event.checkpoint;
    }
    return found;
  }

  subscribe(options: SubscribeOptions): FeedSubscription {
    const subscription = new PollingSubscription(
      this.db,
      this.statements,
      options,
      (stopped) => this.subscriptions.delete(stopped),
      { read: (after, limit) => this.readAllAfter(after, limit), lastCommitted: () => this.lastCommitted() },
    );
    this.subscriptions.add(subscription);
    if (options.wakeOnAppend === false) this.quietSubscriptions.add(subscription);
    this.followLiveFeed();
    return subscription;
  }

  loadCheckpoint(subscriptionId: string, options: { within?: SqlQueryable } = {}): Promise<FeedCheckpoint> {
    return loadCheckpointRow(options.within ?? this.statements, subscriptionId);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.recoveryTimer);
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.liveFeed?.unsubscribe().catch(() => undefined);
    await this.client.dispose();
  }

  /**
   * Writes the appends decided and left unwritten (oldest first), for streams nobody has written
   * since. Runs on a timer in every process on this store; the stream locks keep two from racing.
   */
  async recover(olderThanMs = 0): Promise<number> {
    if (this.recovering || this.closed) return 0;
    this.recovering = true;
    let written = 0;
    try {
      for (const streamId of await streamsLeftPending(this.statements, olderThanMs, 100)) {
        written += await this.db.transaction(async (tx) => {
          await lockStreams(tx, [streamId]);
          const pending = await pendingAppendsOf(tx, [streamId]);
          await this.writePending(tx, pending);
          return pending.length;
        });
      }
      this.lastRecoveryError = null;
    } catch (error) {
      this.lastRecoveryError = error instanceof Error ? error : new Error(String(error));
    } finally {
      this.recovering = false;
    }
    return written;
  }

  /** Writes decided appends of streams whose locks the transaction holds, and forgets them there. */
  private async writePending(tx: SqlQueryable, pending: readonly PendingAppend[]): Promise<void> {
    if (pending.length === 0) return;
    for (const append of pending) await this.writeDecided(append);
    await forgetPendingAppends(
      tx,
      pending.map((append) => append.id),
    );
  }

  /**
   * Writes one stream's decided events with the expected revision they were decided at. Another
   * process may have written them first (it took the stream over): the read-back is the check
   * either way, and anything else at those versions is an error nobody may paper over.
   */
  private async writeDecided(append: PendingAppend): Promise<RecordedEvent[]> {
    const expectedRevision = append.expectedVersion === 0 ? NO_STREAM : BigInt(append.expectedVersion - 1);
    try {
      await this.client.appendToStream(
        append.streamId,
        append.events.map((event) => toEventData(append.streamType, event)),
        { expectedRevision },
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
    const from = append.expectedVersion + 1;
    const written = await this.readRange(
      append.streamId,
      from,
      append.expectedVersion + append.events.length,
    );
    const same =
      written.length === append.events.length &&
      written.every((event, index) => event.eventId === append.events[index]?.eventId);
    if (!same) {
      throw new Error(
        `stream ${append.streamId}: versions from ${from} hold other events than the ones decided for them; was it written outside this service?`,
      );
    }
    return written;
  }

  private async currentVersion(streamId: string): Promise<number> {
    let version = 0;
    try {
      // Read to the end: a read left unfinished keeps its call open until the client is disposed.
      for await (const resolved of this.client.readStream(streamId, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        if (resolved.event) version = Number(resolved.event.revision) + 1;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return 0;
      throw this.unavailable(error);
    }
    return version;
  }

  private async readRange(
    streamId: string,
    fromVersion: number,
    toVersion: number,
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: BigInt(fromVersion - 1),
        maxCount: toVersion - fromVersion + 1,
      })) {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw this.unavailable(error);
    }
    return events;
  }

  /**
   * The port's events of $all strictly after `after` (from the first at FEED_START), at most
   * `limit`, none past `until`. EventStoreDB's own events are read and skipped.
   */
  private async readAllAfter(
    after: FeedCheckpoint,
    limit: number,
    until?: FeedCheckpoint,
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    let floor: FeedCheckpoint | undefined = isFeedStart(after) ? undefined : after;
    let from: Position | typeof START = floor ? positionOf(floor) : START;
    for (;;) {
      // One more than is missing: reading from a position includes the event there, which the
      // floor skips. Every read is read to its end (one left unfinished keeps its call open).
      const asked = Math.min(ALL_PAGE, limit - events.length + 1);
      let read = 0;
      let last: Position | undefined;
      let past = false;
      for await (const resolved of this.reachable(() =>
        this.client.readAll({ fromPosition: from, maxCount: asked, direction: FORWARDS }),
      )) {
        read += 1;
        last = resolved.event?.position ?? last;
        const event = toRecordedEvent(resolved);
        if (!event || past || events.length === limit) continue;
        if (floor && compareCheckpoints(event.checkpoint, floor) <= 0) continue;
        if (until && compareCheckpoints(event.checkpoint, until) > 0) past = true;
        else events.push(event);
      }
      if (past || events.length === limit || read < asked || !last) return events;
      from = last;
      floor = checkpointOf(last);
    }
  }

  /** The last of the port's events in $all, null when there is none. */
  private async lastCommitted(): Promise<FeedCheckpoint | null> {
    let from: Position | typeof END = END;
    for (;;) {
      let read = 0;
      let last: Position | undefined;
      let found: FeedCheckpoint | undefined;
      for await (const resolved of this.reachable(() =>
        this.client.readAll({ fromPosition: from, maxCount: TAIL_PAGE, direction: BACKWARDS }),
      )) {
        read += 1;
        last = resolved.event?.position ?? last;
        found ??= toRecordedEvent(resolved)?.checkpoint;
      }
      if (found) return found;
      if (read < TAIL_PAGE || !last) return null;
      from = last;
    }
  }

  /**
   * One live subscription to $all (EventStoreDB's own events filtered out on the server) per
   * store: each event wakes this process's subscriptions, which then read their batch. Appends of
   * other processes so reach them at once rather than at the next poll; polling remains the floor.
   */
  private followLiveFeed(): void {
    if (this.liveFeed || this.closed) return;
    const live = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
    this.liveFeed = live;
    live.on('data', () => this.wakeSubscriptions());
    live.on('error', () => {
      this.liveFeed = undefined;
      if (this.closed || this.subscriptions.size === 0) return;
      setTimeout(() => this.followLiveFeed(), 1_000).unref();
    });
  }

  private wakeSubscriptions(): void {
    for (const subscription of this.subscriptions) {
      if (!this.quietSubscriptions.has(subscription)) subscription.notify();
    }
  }

  /** A read of $all whose failures to reach EventStoreDB become EventStoreUnavailableError. */
  private async *reachable<T>(read: () => AsyncIterable<T>): AsyncGenerator<T> {
    try {
      yield* read();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private unavailable(error: unknown): unknown {
    return isUnreachable(error) ? new EventStoreUnavailableError(error, true) : error;
  }
}

function isFeedStart(checkpoint: FeedCheckpoint): boolean {
  return checkpoint.transactionId === FEED_START.transactionId && checkpoint.position === FEED_START.position;
}

function checkExpected(append: EncodedAppend, version: number): void {
  const { check } = append;
  if (
    (check.kind === 'no_stream' && version !== 0) ||
    (check.kind === 'version' && version !== check.version)
  ) {
    throw new ConflictSignal(append, version);
  }
}

/** The stream's events to write after `version`. */
function decidedAppend(append: EncodedAppend, version: number): Omit<PendingAppend, 'id'> {
  return {
    streamId: append.streamId,
    streamType: append.streamType,
    expectedVersion: version,
    events: append.eventIds.map((eventId, index) => ({
      eventId,
      type: append.types[index] as string,
      schemaVersion: append.schemaVersions[index] as number,
      data: append.data[index] as string,
      metadata: append.metadata[index] as string,
    })),
  };
}

/** The decided events as the inTransaction hook takes them: versions known, positions not yet. */
function pendingEventsOf(appends: readonly Omit<PendingAppend, 'id'>[]): PendingEvent[] {
  return appends.flatMap((append) =>
    append.events.map((event, index) => ({
      eventId: event.eventId,
      streamId: append.streamId,
      streamType: append.streamType,
      streamVersion: append.expectedVersion + index + 1,
      type: event.type,
      schemaVersion: event.schemaVersion,
      data: asStoredJson(event.data),
      metadata: asStoredJson(event.metadata) as Record<string, unknown>,
    })),
  );
}
