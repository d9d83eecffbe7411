import { performance } from 'node:perf_hooks';
import { settledInOrder, SqlClient, SqlQueryable } from '@payouts/database';
import { DomainError } from '@payouts/domain';
import {
  AppendOptions,
  AppendResult,
  EVENT_STORE_LIMITS,
  EventStore,
  PendingEvent,
  RecordedEvent,
  StreamVersionConflictError,
} from '@payouts/event-store';
import { OverloadedError } from '@payouts/http';
import { projectReadModels, ProjectionOptions, StreamSource } from '@payouts/read-models';
import { GroupingLimits, GroupingQueue, GroupMember, settleGroup } from './grouping-queue';
import { OneWriterRefusal } from './one-writer-refusal';
import { PlannedRow, writePlannedRow } from './planned-row';
import { batchingRows } from './row-batches';
import type { WritePlan } from './write-plan';

export const COMMITTER_LIMITS: GroupingLimits = Object.freeze({
  // Weighed in streams: one group is one append, within the event store's bound.
  maxWeight: EVENT_STORE_LIMITS.maxStreamsPerAppend,
  // One group at a time: the next gathers every plan that came meanwhile (docs/performance.md).
  maxInFlight: 1,
});

/**
 * The fewest plans the committer lets wait for a group whatever its measured rate; past the
 * larger of this and a second of measured commits, the next grouped plan is refused at once.
 */
export const COMMITTER_MIN_WAITING = 1024;
/** Weight of the newest group in the moving average of a plan's commit time. */
const SMOOTHING = 0.2;

type InTransaction = NonNullable<AppendOptions['inTransaction']>;

interface Member extends GroupMember {
  plan: WritePlan;
  resolve: (result: AppendResult) => void;
}

/** What a commit of a plan without appends answers. */
const NO_EVENTS: AppendResult = Object.freeze({ streams: [], events: [] });

/**
 * The one place plans are written. A plan commits in one transaction: its appends (each stream
 * with its expected version), the read models kept current inline (balance, list: read-your-writes
 * for Get, List and Balance), and its rows. With `grouped`, plans that reach the committer while a
 * group is in flight, or in the same turn of the event loop, commit together in one transaction:
 * one round trip and one COMMIT (a WAL flush) for the group where each had its own.
 *
 * Each plan keeps the semantics of committing alone:
 * - all of a plan's streams and rows commit, or none;
 * - a stream is in one group at a time, so plans on one stream commit in the order they came;
 * - when a group rolls back for a reason that may be one plan's (a version conflict, a refusal
 *   from a projection such as balance_unavailable, a OneWriterRefusal such as an Idempotency-Key
 *   taken meanwhile), nothing was written, and each plan is committed again alone, so only the
 *   plan it concerns hears of it;
 * - any other failure (the database gone, a COMMIT whose outcome is unknown) reaches every plan
 *   as it is, never committed a second time here.
 */
export class Committer {
  private readonly groups: GroupingQueue<Member>;
  /** Moving average of a grouped plan's share of its group's commit time, in ms. */
  private msPerPlan: number | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly db: SqlClient,
    limits: GroupingLimits = COMMITTER_LIMITS,
  ) {
    this.groups = new GroupingQueue(limits, (group) => this.commitGroup(group));
  }

  commit(plan: WritePlan, options: { grouped?: boolean } = {}): Promise<AppendResult> {
    if (plan.appends.length === 0) return this.commitRows(plan.rows);
    if (!options.grouped) return this.commitAlone(plan);
    if (this.groups.waiting >= this.waitingBound()) {
      // More waits than commits in about a second: refused before any of it is written.
      return Promise.reject(new OverloadedError('commit queue'));
    }
    return new Promise<AppendResult>((resolve, reject) => {
      this.groups.add({
        plan,
        resolve,
        fail: reject,
        keys: plan.appends.map((append) => append.streamId),
        weight: plan.appends.length,
      });
    });
  }

  /** Plans still waiting for a group. */
  get waiting(): number {
    return this.groups.waiting;
  }

  private commitAlone(plan: WritePlan): Promise<AppendResult> {
    return this.store.append([...plan.appends], { inTransaction: inTransactionOf(this.store, [plan]) });
  }

  private async commitRows(rows: readonly PlannedRow[]): Promise<AppendResult> {
    if (rows.length > 0) await this.db.transaction((tx) => writeRows(tx, rows));
    return NO_EVENTS;
  }

  private waitingBound(): number {
    const perSecond = this.msPerPlan === undefined ? 0 : 1000 / Math.max(this.msPerPlan, 0.01);
    return Math.max(COMMITTER_MIN_WAITING, Math.ceil(perSecond));
  }

  private async commitGroup(group: Member[]): Promise<void> {
    const started = performance.now();
    await this.settle(group);
    const share = (performance.now() - started) / group.length;
    this.msPerPlan =
      this.msPerPlan === undefined ? share : this.msPerPlan + SMOOTHING * (share - this.msPerPlan);
  }

  private settle(group: Member[]): Promise<void> {
    return settleGroup(group, {
      alone: (member) => this.commitAlone(member.plan),
      together: (members) => this.commitTogether(members),
      runsAgainAlone: rolledBackForOnePlan,
    });
  }

  private async commitTogether(group: Member[]): Promise<AppendResult[]> {
    const result = await this.store.append(
      group.flatMap((member) => member.plan.appends),
      {
        inTransaction: inTransactionOf(
          this.store,
          group.map((member) => member.plan),
        ),
      },
    );
    return splitByMember(group, result);
  }
}

/**
 * The plans' work beside their events: the events projected together (each read model's common
 * case one statement for all of them), with the strictest balance-lag bound any plan gave (a
 * refusal rolls a group back and each plan then commits alone with its own), and the plans' rows,
 * each statement once for all of them. Both are issued at once, so their statements go out with
 * the append's; the work ends only when both have.
 */
function inTransactionOf(store: EventStore, plans: readonly WritePlan[]): InTransaction {
  const projection: ProjectionOptions = { concurrentStreams: true };
  const bounds = plans.flatMap((plan) => plan.maxBalanceLagEvents ?? []);
  if (bounds.length > 0) projection.maxBalanceLagEvents = Math.min(...bounds);
  const rows = plans.flatMap((plan) => plan.rows);
  return async (tx, events) => {
    await settledInOrder([
      projectReadModels(tx, withDecided(store, events), events, projection),
      rows.length === 0 ? Promise.resolve() : writeRows(batchingRows(tx), rows),
    ]);
  };
}

/**
 * The store as a command's own projection reads it: each stream with the events this append
 * decided. The PostgreSQL store holds them in the transaction already; EventStoreDB writes them
 * only once the decision commits (docs/eventstoredb.md), so they come from the hook's own list.
 */
function withDecided(store: EventStore, decided: readonly PendingEvent[]): StreamSource {
  return {
    async readStream(streamId, options) {
      const { events } = await store.readStream(streamId, options);
      const from = options.fromVersion ?? 1;
      const to = options.toVersion ?? Number.MAX_SAFE_INTEGER;
      const read = new Set(events.map((event) => event.streamVersion));
      const added = decided.filter(
        (event) =>
          event.streamId === streamId &&
          event.streamVersion >= from &&
          event.streamVersion <= to &&
          !read.has(event.streamVersion),
      );
      return { events: [...events, ...added] };
    },
  };
}

async function writeRows(tx: SqlQueryable, rows: readonly PlannedRow[]): Promise<void> {
  await settledInOrder(rows.map((row) => writePlannedRow(tx, row)));
}

/** A failure raised before COMMIT that rolled the whole transaction back and may concern one plan. */
export function rolledBackForOnePlan(error: unknown): boolean {
  return (
    error instanceof StreamVersionConflictError ||
    error instanceof DomainError ||
    error instanceof OneWriterRefusal
  );
}

/**
 * Each member's part of the group's result, shaped as its own append would have returned it: its
 * streams' versions, and their events in the order the store answered them (global position).
 */
function splitByMember(group: readonly Member[], result: AppendResult): AppendResult[] {
  const versions = new Map<string, number>();
  for (const stream of result.streams) versions.set(stream.streamId, stream.version);
  const memberOf = new Map<string, number>();
  group.forEach((member, index) =>
    member.plan.appends.forEach((append) => memberOf.set(append.streamId, index)),
  );
  const events = group.map((): RecordedEvent[] => []);
  for (const event of result.events) {
    const index = memberOf.get(event.streamId);
    if (index !== undefined) events[index]!.push(event);
  }
  return group.map((member, index) => ({
    streams: member.plan.appends.map((append) => ({
      streamId: append.streamId,
      version: versions.get(append.streamId) ?? 0,
    })),
    events: events[index]!,
  }));
}
