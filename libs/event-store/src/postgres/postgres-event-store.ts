import { settledInOrder, SqlClient, SqlQueryable, SqlState, sqlStateOf } from '@payouts/database';
import { AppendObserver, observeAppend } from '../append-observer';
import { EncodedAppend, encodeAppends } from '../encode-appends';
import { DuplicateEventIdError, StreamVersionConflictError } from '../errors';
import {
  AppendOptions,
  AppendResult,
  EVENT_STORE_LIMITS,
  EventStore,
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
import {
  checkCount,
  checkedRanges,
  checkFeedPage,
  checkGlobalPosition,
  MAX_VERSION,
  versionBound,
} from '../port-arguments';
import {
  AppendedRow,
  appendStreamsStatement,
  CONSTRAINTS,
  STREAM_VERSION_SQL,
  StreamsAppendedRow,
  VERSION_CONFLICT_STATE,
} from './append-sql';
import { asStoredJson } from './event-row';
import { PollingSubscription } from './polling-subscription';
import {
  checkpointAtRow,
  feedSnapshotRow,
  isSnapshotToken,
  lastCommittedCheckpoint,
  loadCheckpointRow,
  readFeedAsOfRows,
  readFeedRows,
  readStreamRows,
  readStreamsRows,
  streamIdRows,
  subscriptionLagRows,
} from './read-sql';

/** Raised inside the append transaction; turned into StreamVersionConflictError once it rolled back. */
class ConflictSignal extends Error {
  constructor(
    readonly append: EncodedAppend,
    cause?: unknown,
  ) {
    super(`version conflict on stream ${append.streamId}`, { cause });
  }
}

/**
 * The event store on PostgreSQL, through the SqlClient seam: the same SQL runs on the embedded
 * PGlite database and on a PostgreSQL server (migration 0001 creates the tables).
 */
export class PostgresEventStore implements EventStore {
  private readonly subscriptions = new Set<PollingSubscription>();
  /** Subscriptions that asked not to be woken by appends (wakeOnAppend: false). */
  private readonly quietSubscriptions = new WeakSet<PollingSubscription>();
  /** The same database, for statements that run on their own (prepared on a server). */
  private readonly statements: SqlQueryable;

  constructor(
    private readonly db: SqlClient,
    private readonly options: { observer?: AppendObserver } = {},
  ) {
    this.statements = {
      query: (sql, params) => db.queryPrepared(sql, params),
      queryPrepared: (sql, params) => db.queryPrepared(sql, params),
    };
  }

  append(appends: StreamAppend[], options: AppendOptions = {}): Promise<AppendResult> {
    return observeAppend(this.options.observer, () => this.appendUnobserved(appends, options));
  }

  private async appendUnobserved(appends: StreamAppend[], options: AppendOptions): Promise<AppendResult> {
    const encoded = encodeAppends(appends);
    const hook = options.inTransaction;
    let events: RecordedEvent[];
    try {
      if (!hook) {
        // One statement in autocommit: atomic on its own, and one round trip.
        events = await this.appendStreams(this.statements, encoded);
      } else {
        events = await this.db.transaction(async (tx) => {
          const pending = pendingEventsOf(encoded);
          // The hook's events, already parsed, are the written events' data too.
          const parsed = pending && new Map(pending.map((event) => [event.eventId, event]));
          // Issued together: the hook's statements go out with the append's (pipelined).
          const appended = this.appendStreams(tx, encoded, parsed);
          const [written] = await settledInOrder<RecordedEvent[] | void>([
            appended,
            ...(pending ? [hook(tx, pending)] : []),
          ]);
          if (!pending) await hook(tx, written as RecordedEvent[]);
          return written as RecordedEvent[];
        });
      }
    } catch (error) {
      const [first] = encoded;
      if (first && isConcurrencyAbort(error)) {
        // The database broke a deadlock (or a serialization failure) by aborting this writer:
        // nothing was written, and to the caller that is a conflict like any other.
        throw new StreamVersionConflictError(
          first.streamId,
          first.expectedVersion,
          await this.currentVersion(first.streamId),
          { cause: error },
        );
      }
      if (!(error instanceof ConflictSignal)) throw error;
      // Read after the rollback: the transaction may be unusable, and the version is only informative.
      const actual = await this.currentVersion(error.append.streamId);
      throw new StreamVersionConflictError(error.append.streamId, error.append.expectedVersion, actual, {
        cause: error.cause,
      });
    }
    for (const subscription of this.subscriptions) {
      if (!this.quietSubscriptions.has(subscription)) subscription.notify();
    }
    return {
      streams: appends.map((append) => ({
        streamId: append.streamId,
        version: lastVersionOf(events, append.streamId),
      })),
      events,
    };
  }

  async readStream(
    streamId: string,
    options: ReadStreamOptions = {},
  ): Promise<{ version: number; events: RecordedEvent[] }> {
    const fromVersion = versionBound('fromVersion', options.fromVersion ?? 1);
    const toVersion = versionBound('toVersion', options.toVersion ?? MAX_VERSION);
    return readStreamRows(options.within ?? this.statements, streamId, fromVersion, toVersion);
  }

  async readStreams(
    ranges: readonly StreamRange[],
    options: { within?: SqlQueryable } = {},
  ): Promise<RecordedEvent[]> {
    return readStreamsRows(options.within ?? this.statements, checkedRanges(ranges));
  }

  async streamIds(streamType: string, options: { after?: string; limit: number }): Promise<string[]> {
    const { after = '', limit } = options;
    checkCount('limit', limit, EVENT_STORE_LIMITS.maxStreamIdsPage);
    return streamIdRows(this.statements, streamType, after, limit);
  }

  async subscriptionLag(subscriptionId: string, cap: number): Promise<number> {
    checkCount('cap', cap, EVENT_STORE_LIMITS.maxFeedPage);
    return subscriptionLagRows(this.statements, subscriptionId, cap);
  }

  async readFeed(
    after: FeedCheckpoint,
    limit: number,
    options: ReadFeedOptions = {},
  ): Promise<RecordedEvent[]> {
    checkFeedPage(after, limit);
    const { asOf } = options;
    if (asOf === undefined) return readFeedRows(this.statements, after, limit);
    if (!isSnapshotToken(asOf.token)) throw new RangeError('asOf must be a snapshot handed out by the store');
    return readFeedAsOfRows(this.statements, asOf.token, after, limit);
  }

  feedSnapshot(options: { within?: SqlQueryable } = {}): Promise<FeedSnapshot> {
    return feedSnapshotRow(options.within ?? this.statements);
  }

  async checkpointAt(globalPosition: string): Promise<FeedCheckpoint | null> {
    checkGlobalPosition(globalPosition);
    return checkpointAtRow(this.statements, globalPosition);
  }

  subscribe(options: SubscribeOptions): FeedSubscription {
    const subscription = new PollingSubscription(
      this.db,
      this.statements,
      options,
      (stopped) => this.subscriptions.delete(stopped),
      {
        read: (after, limit, within) => readFeedRows(within ?? this.statements, after, limit),
        lastCommitted: () => lastCommittedCheckpoint(this.statements),
      },
    );
    this.subscriptions.add(subscription);
    if (options.wakeOnAppend === false) this.quietSubscriptions.add(subscription);
    return subscription;
  }

  loadCheckpoint(subscriptionId: string, options: { within?: SqlQueryable } = {}): Promise<FeedCheckpoint> {
    return loadCheckpointRow(options.within ?? this.statements, subscriptionId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
  }

  /** The append as one call of append_to_streams; its events in stream order. */
  private async appendStreams(
    db: SqlQueryable,
    appends: readonly EncodedAppend[],
    parsed?: ParsedEvents,
  ): Promise<RecordedEvent[]> {
    const { sql, params } = appendStreamsStatement(appends);
    let rows: StreamsAppendedRow[];
    try {
      rows = (await db.queryPrepared<StreamsAppendedRow>(sql, params)).rows;
    } catch (error) {
      throw translateAppendError(error, appends);
    }
    const byId = new Map(appends.map((append) => [append.streamId, append]));
    const byStream = new Map<string, AppendedRow[]>();
    for (const row of rows) {
      const append = byId.get(row.appended_stream);
      if (!append)
        throw new Error(`append_to_streams answered for stream ${row.appended_stream}, not appended`);
      const streamRows = byStream.get(append.streamId) ?? [];
      streamRows.push({
        stream_version: row.appended_version,
        global_position: row.appended_position,
        transaction_id: row.appended_transaction,
        recorded_at: row.appended_at,
      });
      byStream.set(append.streamId, streamRows);
    }
    return appends.flatMap((append) => recordedEvents(append, byStream.get(append.streamId) ?? [], parsed));
  }

  private async currentVersion(streamId: string): Promise<number> {
    const { rows } = await this.statements.query<{ version: number }>(STREAM_VERSION_SQL, [streamId]);
    return Number(rows[0]?.version ?? 0);
  }
}

function isConcurrencyAbort(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === SqlState.deadlockDetected || state === SqlState.serializationFailure;
}

/** The events one stream's append wrote, from the rows the database returned for it. */
/** Events whose stored JSON was already parsed, by event id. */
type ParsedEvents = ReadonlyMap<string, Pick<PendingEvent, 'data' | 'metadata'>>;

function recordedEvents(
  append: EncodedAppend,
  rows: readonly AppendedRow[],
  parsed?: ParsedEvents,
): RecordedEvent[] {
  const count = append.eventIds.length;
  if (rows.length !== count)
    throw new Error(`append to ${append.streamId} wrote ${rows.length} of ${count} events`);
  const events = new Array<RecordedEvent>(count);
  const lastVersion = Math.max(...rows.map((row) => Number(row.stream_version)));
  for (const row of rows) {
    const index = count - 1 - (lastVersion - Number(row.stream_version));
    const eventId = append.eventIds[index] as string;
    const known = parsed?.get(eventId);
    events[index] = {
      eventId,
      streamId: append.streamId,
      streamType: append.streamType,
      streamVersion: Number(row.stream_version),
      type: append.types[index] as string,
      schemaVersion: append.schemaVersions[index] as number,
      data: known ? known.data : asStoredJson(append.data[index] as string),
      metadata: known
        ? known.metadata
        : (asStoredJson(append.metadata[index] as string) as Record<string, unknown>),
      globalPosition: row.global_position,
      transactionId: row.transaction_id,
      recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
      checkpoint: { transactionId: row.transaction_id, position: row.global_position },
    };
  }
  return events;
}

/**
 * The append's failure as the event store's own error: a stream whose step matched nothing (the
 * function names it), a reused event id, or a stream whose rows another writer changed (a
 * conflict on the stream the database names, else the first).
 */
function translateAppendError(error: unknown, appends: readonly EncodedAppend[]): unknown {
  const state = sqlStateOf(error);
  const { constraint, detail } = error as { constraint?: string; detail?: string };
  if (state === VERSION_CONFLICT_STATE) {
    const append = appends.find((candidate) => candidate.streamId === detail);
    return append ? new ConflictSignal(append, error) : error;
  }
  if (state !== SqlState.uniqueViolation) return error;
  const named = /^Key \(stream_id(?:, stream_version)?\)=\((.*?)(?:, \d+)?\)/.exec(detail ?? '')?.[1];
  const append = appends.find((candidate) => candidate.streamId === named) ?? (appends[0] as EncodedAppend);
  if (constraint === CONSTRAINTS.eventId) {
    const duplicate = /\(event_id\)=\(([0-9a-f-]+)\)/i.exec(detail ?? '')?.[1];
    return new DuplicateEventIdError(duplicate, { cause: error });
  }
  if (constraint === CONSTRAINTS.streamVersion || constraint === CONSTRAINTS.streamsPrimaryKey) {
    return new ConflictSignal(append, error);
  }
  return error;
}

/**
 * The events as the append will write them, or undefined when a stream's version is only known
 * once written (expected version 'any').
 */
function pendingEventsOf(encoded: readonly EncodedAppend[]): PendingEvent[] | undefined {
  const pending: PendingEvent[] = [];
  for (const append of encoded) {
    if (append.check.kind === 'any') return undefined;
    const base = append.check.kind === 'version' ? append.check.version : 0;
    append.eventIds.forEach((eventId, index) => {
      pending.push({
        eventId,
        streamId: append.streamId,
        streamType: append.streamType,
        streamVersion: base + index + 1,
        type: append.types[index] as string,
        schemaVersion: append.schemaVersions[index] as number,
        data: asStoredJson(append.data[index] as string),
        metadata: asStoredJson(append.metadata[index] as string) as Record<string, unknown>,
      });
    });
  }
  return pending;
}

function lastVersionOf(events: readonly RecordedEvent[], streamId: string): number {
  let version = 0;
  for (const event of events) {
    if (event.streamId === streamId && event.streamVersion > version) version = event.streamVersion;
  }
  return version;
}
