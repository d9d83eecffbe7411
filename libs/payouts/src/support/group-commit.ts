import { DomainError } from '@payouts/domain';
import {
  AppendResult,
  EVENT_STORE_LIMITS,
  EventStore,
  StreamAppend,
  StreamVersionConflictError,
} from '@payouts/event-store';
import { appendWithReadModels, AppendWithReadModelsOptions, readModelsHook } from './append-with-read-models';

export interface GroupCommitLimits {
  /** Streams in one group's append: the event store's own bound. */
  maxStreams: number;
  /** Groups whose transaction is open at once; later commands queue and form the next group. */
  maxInFlight: number;
}

export const GROUP_COMMIT_LIMITS: GroupCommitLimits = Object.freeze({
  maxStreams: EVENT_STORE_LIMITS.maxStreamsPerAppend,
  maxInFlight: 2,
});

interface Member {
  appends: StreamAppend[];
  options: AppendWithReadModelsOptions;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the appends of concurrent commands (Create Payout's). A command's append is
 * one transaction of its own: a round trip, a BEGIN and a COMMIT (a WAL flush) around a handful of
 * statements, which on a small machine costs more than the statements. Commands that reach this
 * while a group is in flight, or in the same turn of the event loop, are appended together: every
 * stream of every member, every member's projections and in-transaction work, one COMMIT.
 *
 * Each member keeps the semantics of appending alone:
 * - all of a member's streams commit, or none (the group is one transaction);
 * - a stream is in one group at a time (a later member waits for a later group), so members on
 *   one stream append in the order they came, each on the version the one before it left;
 * - when the group rolls back for a reason that may be one member's (a version conflict, a
 *   refusal from a projection such as balance_unavailable), nothing was written, and each member
 *   is appended again alone, so only the member it concerns hears of it;
 * - any other failure (the database gone, a COMMIT whose outcome is unknown) reaches every member
 *   as it is: each then answers as an append of its own would (503 attempt_unresolved, resolved by
 *   a retry with the same Idempotency-Key), never appended a second time here.
 */
export class GroupCommit {
  private readonly queue: Member[] = [];
  /** Streams of the groups in flight: a member that shares one waits until its group is done. */
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly store: EventStore,
    private readonly limits: GroupCommitLimits = GROUP_COMMIT_LIMITS,
  ) {
    if (!Number.isInteger(limits.maxStreams) || limits.maxStreams < 1) {
      throw new RangeError('maxStreams must be a positive integer');
    }
    if (!Number.isInteger(limits.maxInFlight) || limits.maxInFlight < 1) {
      throw new RangeError('maxInFlight must be a positive integer');
    }
  }

  append(appends: StreamAppend[], options: AppendWithReadModelsOptions = {}): Promise<AppendResult> {
    // Too large to share a group: alone, as if there were no group commit.
    if (appends.length > this.limits.maxStreams) return appendWithReadModels(this.store, appends, options);
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ appends, options, resolve, reject });
      this.schedule();
    });
  }

  /** Members still waiting for a group (for tests and shutdown checks). */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.limits.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    // After the current turn's I/O callbacks, so requests that arrived together go together.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const group = this.takeGroup();
      if (group.length === 0) return; // every waiting member shares a stream with a group in flight
      const streams = group.flatMap((member) => member.appends.map((append) => append.streamId));
      for (const id of streams) this.busy.add(id);
      this.inFlight += 1;
      void this.commit(group).finally(() => {
        for (const id of streams) this.busy.delete(id);
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  /**
   * Waiting members, first come first served, whose streams are disjoint (from each other's and
   * from the groups in flight) and within the stream bound. One that shares a stream stays at the
   * head of the queue for a later group, so it appends after the member it waited for.
   */
  private takeGroup(): Member[] {
    const group: Member[] = [];
    const streams = new Set<string>();
    const left: Member[] = [];
    for (const member of this.queue) {
      const ids = member.appends.map((append) => append.streamId);
      const fits =
        streams.size + ids.length <= this.limits.maxStreams &&
        ids.every((id) => !streams.has(id) && !this.busy.has(id));
      if (fits) {
        group.push(member);
        for (const id of ids) streams.add(id);
      } else {
        left.push(member);
      }
    }
    this.queue.splice(0, this.queue.length, ...left);
    return group;
  }

  private async commit(group: Member[]): Promise<void> {
    if (group.length === 1) {
      const [only] = group as [Member];
      await appendWithReadModels(this.store, only.appends, only.options).then(only.resolve, only.reject);
      return;
    }
    let result: AppendResult;
    try {
      const hooks = group.map((member) => ({
        streams: new Set(member.appends.map((append) => append.streamId)),
        hook: readModelsHook(member.options),
      }));
      result = await this.store.append(
        group.flatMap((member) => member.appends),
        {
          inTransaction: async (tx, events) => {
            await Promise.all(
              hooks.map(({ streams, hook }) =>
                hook(
                  tx,
                  events.filter((event) => streams.has(event.streamId)),
                ),
              ),
            );
          },
        },
      );
    } catch (error) {
      if (!rolledBackForOneMember(error)) {
        for (const member of group) member.reject(error);
        return;
      }
      // Nothing was written: each member again on its own, so only the one concerned hears of it.
      await Promise.all(
        group.map((member) =>
          appendWithReadModels(this.store, member.appends, member.options).then(
            member.resolve,
            member.reject,
          ),
        ),
      );
      return;
    }
    for (const member of group) member.resolve(resultFor(member.appends, result));
  }
}

/** A failure raised before COMMIT that rolled the whole transaction back and may concern one member. */
function rolledBackForOneMember(error: unknown): boolean {
  return error instanceof StreamVersionConflictError || error instanceof DomainError;
}

/** A member's part of the group's result, shaped as its own append would have returned it. */
function resultFor(appends: readonly StreamAppend[], group: AppendResult): AppendResult {
  const versions = new Map(group.streams.map((stream) => [stream.streamId, stream.version]));
  const ids = new Set(appends.map((append) => append.streamId));
  return {
    streams: appends.map((append) => ({
      streamId: append.streamId,
      version: versions.get(append.streamId) ?? 0,
    })),
    events: group.events.filter((event) => ids.has(event.streamId)),
  };
}
