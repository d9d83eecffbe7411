import {
  batchingRows,
  GroupingLimits,
  GroupingQueue,
  GroupMember,
  OneWriterRefusal,
  settledInOrder,
  settleGroup,
} from '@payouts/database';
import { DomainError } from '@payouts/domain';
import {
  AppendResult,
  EVENT_STORE_LIMITS,
  EventStore,
  RecordedEvent,
  StreamAppend,
  StreamVersionConflictError,
} from '@payouts/event-store';
import {
  appendWithReadModels,
  AppendWithReadModelsOptions,
  InTransactionHook,
  readModelsHook,
} from './append-with-read-models';

export const GROUP_COMMIT_LIMITS: GroupingLimits = Object.freeze({
  // Weighed in streams: one group is one append, within the event store's bound.
  maxWeight: EVENT_STORE_LIMITS.maxStreamsPerAppend,
  // One group at a time: the group's statements run on one server process while this process
  // forms the next, and the next gathers every create that came meanwhile. A second group in
  // flight halved the groups and made two server processes compete with this one for the cores:
  // ten interleaved bench:api pairs gave a median of 1,410 creates/s with one, 1,186 with two,
  // and less CPU per create on both sides.
  maxInFlight: 1,
});

interface Member extends GroupMember {
  appends: StreamAppend[];
  options: AppendWithReadModelsOptions;
  resolve: (result: AppendResult) => void;
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
 *   refusal from a projection such as balance_unavailable, a OneWriterRefusal such as an
 *   Idempotency-Key taken meanwhile), nothing was written, and each member is appended again
 *   alone, so only the member it concerns hears of it;
 * - any other failure (the database gone, a COMMIT whose outcome is unknown) reaches every member
 *   as it is: each then answers as an append of its own would (503 attempt_unresolved, resolved by
 *   a retry with the same Idempotency-Key), never appended a second time here.
 */
export class GroupCommit {
  private readonly groups: GroupingQueue<Member>;

  constructor(
    private readonly store: EventStore,
    limits: GroupingLimits = GROUP_COMMIT_LIMITS,
  ) {
    this.groups = new GroupingQueue(limits, (group) => this.commit(group));
  }

  append(appends: StreamAppend[], options: AppendWithReadModelsOptions = {}): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.groups.add({
        appends,
        options,
        resolve,
        fail: reject,
        // A stream is in one group at a time, so its members append in the order they came.
        keys: appends.map((append) => append.streamId),
        weight: appends.length,
      });
    });
  }

  /** Members still waiting for a group. */
  get waiting(): number {
    return this.groups.waiting;
  }

  private commit(group: Member[]): Promise<void> {
    return settleGroup(group, {
      alone: (member) => appendWithReadModels(this.store, member.appends, member.options),
      together: (members) => this.appendTogether(members),
      runsAgainAlone: rolledBackForOneMember,
    });
  }

  /** Every member's streams in one append, each member's own in-transaction work beside them. */
  private async appendTogether(group: Member[]): Promise<AppendResult[]> {
    const result = await this.store.append(
      group.flatMap((member) => member.appends),
      { inTransaction: groupHook(group) },
    );
    return splitByMember(group, result);
  }
}

/**
 * The group's in-transaction work: the group's events projected together (each read model's
 * common case one statement for the group), with the strictest balance-lag bound any member gave
 * (every Create gives the same; a refusal rolls the group back and each member then runs alone
 * with its own), and the members' own rows (a create's stored answer) beside it, one statement
 * each.
 */
function groupHook(group: readonly Member[]): InTransactionHook {
  const bounds = group.flatMap((member) => member.options.maxBalanceLagEvents ?? []);
  return readModelsHook({
    ...(bounds.length > 0 ? { maxBalanceLagEvents: Math.min(...bounds) } : {}),
    alsoInTransaction: async (tx) => {
      const batched = batchingRows(tx);
      await settledInOrder(
        group.map((member) => Promise.resolve(member.options.alsoInTransaction?.(batched))),
      );
    },
  });
}

/** A failure raised before COMMIT that rolled the whole transaction back and may concern one member. */
function rolledBackForOneMember(error: unknown): boolean {
  return (
    error instanceof StreamVersionConflictError ||
    error instanceof DomainError ||
    error instanceof OneWriterRefusal
  );
}

/**
 * Each member's part of the group's result, shaped as its own append would have returned it: its
 * streams' versions, and their events in the order the store answered them (global position). A
 * stream is in one member of a group, so one pass over the result sorts every event to its member.
 */
function splitByMember(group: readonly Member[], result: AppendResult): AppendResult[] {
  const versions = new Map<string, number>();
  for (const stream of result.streams) versions.set(stream.streamId, stream.version);
  const memberOf = new Map<string, number>();
  group.forEach((member, index) => member.appends.forEach((append) => memberOf.set(append.streamId, index)));
  const events = group.map((): RecordedEvent[] => []);
  for (const event of result.events) {
    const index = memberOf.get(event.streamId);
    if (index !== undefined) events[index]!.push(event);
  }
  return group.map((member, index) => ({
    streams: member.appends.map((append) => ({
      streamId: append.streamId,
      version: versions.get(append.streamId) ?? 0,
    })),
    events: events[index]!,
  }));
}
