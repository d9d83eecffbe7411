import { performance } from 'node:perf_hooks';
import { DomainError } from '@payouts/domain';
import { StreamAppend, StreamVersionConflictError } from '@payouts/event-store';
import { BurstAllowance, OverloadedError } from '@payouts/http';
import { AggregateCache } from './aggregate-cache';
import type { LoadedAggregate } from './aggregate-streams';
import { Committer, rolledBackForOnePlan } from './committer';
import type { Decides, Decision, GivenStates } from './decision';
import { LedgerLocks } from './ledger-locks';
import { LedgerThroughput } from './ledger-throughput';
import { conflictBackoff } from './retry-on-conflict';
import type { WritePlan } from './write-plan';

export interface LedgerBatchLimits {
  /** Commands decided together and committed as one append (32 creates: 65 streams, within 100). */
  readonly maxMembers: number;
  /**
   * Fewest commands a ledger lets wait whatever its measured rate (a cold start, a quiet account,
   * a stall): the floor under sustained overload.
   */
  readonly minWaiting: number;
  /**
   * Commands a ledger lets wait, whatever its measured rate, while its pressure is young
   * (`burstMs`, or no more arrivals than this have found the bound taken; `BurstAllowance`): a
   * burst this large always waits its turn.
   */
  readonly burstWaiting: number;
  /** How long a ledger's pressure counts as a burst at least (see `burstWaiting`). */
  readonly burstMs: number;
  /** How long, at the ledger's measured commit rate, the commands let wait may take to commit. */
  readonly maxWaitSeconds: number;
  /** Whole-batch attempts after a version conflict (another process wrote the ledger) before each goes alone. */
  readonly maxAttempts: number;
}

export const LEDGER_BATCH_LIMITS: LedgerBatchLimits = Object.freeze({
  maxMembers: 32,
  // Two full batches: one forming while the one before commits, so a ledger under sustained
  // overload still commits full batches even when its measured rate has collapsed (a stall).
  minWaiting: 64,
  // A merchant's burst of 500 concurrent creates on one account always waits here, whatever the
  // measured rate (a cold ledger, a loaded machine); only while the pressure is young (its first
  // second, or its first 512 arrivals past the bound), since 512 waiting at about 3,000 commits/s
  // is 170 ms, more than sustained overload may cost.
  burstWaiting: 512,
  burstMs: 1000,
  // Well inside the goal for answered latency under overload (p99 under 250 ms).
  maxWaitSeconds: 0.1,
  maxAttempts: 3,
});

interface Waiting {
  readonly command: unknown;
  readonly handler: Decides<unknown, unknown>;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

interface Decided {
  readonly member: Waiting;
  readonly decision: Decision<unknown>;
}

interface Refused {
  readonly member: Waiting;
  readonly error: DomainError;
}

type RunAlone = (command: unknown, handler: Decides<unknown, unknown>) => Promise<unknown>;

/**
 * Hot accounts: the commands of one ledger (a merchant's creates) decided together against one
 * in-memory state and committed as one append with one expected version.
 *
 * Commands on a ledger queue while its current batch commits and form the next batch, so a batch
 * grows with the load and a lone command goes at once. Under the ledger's lock, each member is
 * decided in arrival order on the state the members before it leave (`GivenStates`); the ledger
 * events of all of them become one append at the first member's expected version, beside each
 * member's own streams and rows. Each member is still answered alone:
 * - a member refused on the batch's state hears its refusal once the batch has committed (the
 *   funds it lacked were really taken); a refusal decided on a trusted cache is decided again
 *   alone, as it would have been without batching;
 * - a member that cannot join (it writes a stream another member writes, say two creates with one
 *   merchant reference) commits alone after the batch;
 * - a version conflict (another process wrote the ledger) decides the whole batch again on fresh
 *   state; any other refusal that rolls the batch back sends every member alone, so only the one
 *   it concerns hears it; a failure of unknown outcome reaches every member as it is.
 *
 * Every ledger queue is bounded: past what the ledger commits in about `maxWaitSeconds` at its
 * measured rate, the next command is refused at once (OverloadedError, nothing started). While a
 * ledger's pressure (arrivals finding that bound taken) is young, under `burstMs` old or no more
 * than `burstWaiting` arrivals, the bound is at least `burstWaiting` (`BurstAllowance`): a burst
 * is let wait, sustained overload is not. The pressure ends when the queue drains.
 */
export class LedgerBatches {
  private readonly queues = new Map<string, Waiting[]>();
  private readonly throughput: LedgerThroughput;
  /** Per ledger with a queue; gone with its queue (the pressure ends when the queue drains). */
  private readonly bursts = new Map<string, BurstAllowance>();

  constructor(
    private readonly committer: Committer,
    private readonly cache: AggregateCache,
    private readonly locks: LedgerLocks,
    private readonly runAlone: RunAlone,
    private readonly limits: LedgerBatchLimits = LEDGER_BATCH_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.throughput = new LedgerThroughput(limits.maxMembers);
  }

  submit<Command, Result>(
    ledgerId: string,
    command: Command,
    handler: Decides<Command, Result>,
  ): Promise<Result> {
    if (!this.admits(ledgerId)) return Promise.reject(new OverloadedError(`ledger ${ledgerId}`));
    let queue = this.queues.get(ledgerId);
    return new Promise<Result>((resolve, reject) => {
      const member: Waiting = {
        command,
        handler: handler as Decides<unknown, unknown>,
        resolve: resolve as (result: unknown) => void,
        reject,
      };
      if (queue) return void queue.push(member);
      queue = [member];
      this.queues.set(ledgerId, queue);
      void this.drain(ledgerId, queue);
    });
  }

  /** Whether a command on the ledger would be let wait now (a caller may ask before any work). */
  admits(ledgerId: string): boolean {
    const waiting = this.queues.get(ledgerId)?.length ?? 0;
    const measured = this.waitingBound(ledgerId);
    // A ledger under pressure: its allowance sees every arrival (one finding room may end it).
    const burst = this.bursts.get(ledgerId);
    if (burst) return burst.admits(waiting, measured);
    if (waiting < measured) return true;
    // No queue, no pressure to remember (a bound of 0 refuses everything, as before).
    if (waiting === 0) return false;
    const started = new BurstAllowance(
      { floor: this.limits.burstWaiting, youngMs: this.limits.burstMs },
      this.now,
    );
    this.bursts.set(ledgerId, started);
    return started.admits(waiting, measured);
  }

  /** At the measured rate, what commits in `maxWaitSeconds`; never less than `minWaiting`. */
  private waitingBound(ledgerId: string): number {
    const perSecond = this.throughput.perSecond(ledgerId);
    return Math.max(this.limits.minWaiting, Math.ceil(perSecond * this.limits.maxWaitSeconds));
  }

  /** Commits the ledger's batches until none waits; members that must go alone go after each. */
  private async drain(ledgerId: string, queue: Waiting[]): Promise<void> {
    let cycleStart: number | undefined;
    while (queue.length > 0) {
      const alone = await this.locks.runAll([ledgerId], async () => {
        // Taken under the lock: every command that came while it was awaited joins this batch.
        const batch = queue.splice(0, this.limits.maxMembers);
        cycleStart ??= this.now();
        const rest = await this.commitBatch(ledgerId, batch).catch((error: unknown) => {
          for (const member of batch) member.reject(error);
          return [];
        });
        const end = this.now();
        this.throughput.record(ledgerId, end - cycleStart);
        // The next cycle runs from here when commands are waiting already, from its start if not.
        cycleStart = queue.length > 0 ? end : undefined;
        return rest;
      });
      for (const member of alone)
        this.runAlone(member.command, member.handler).then(member.resolve, member.reject);
    }
    this.queues.delete(ledgerId);
    this.bursts.delete(ledgerId);
  }

  private async commitBatch(ledgerId: string, batch: readonly Waiting[]): Promise<Waiting[]> {
    const alone: Waiting[] = [];
    let members = batch;
    for (let attempt = 1; ; attempt += 1) {
      const { decided, refused } = await this.decideAll(ledgerId, members, attempt, alone);
      try {
        if (decided.length > 0) await this.committer.commit(mergedPlan(ledgerId, decided), { grouped: true });
      } catch (error) {
        const again = [...decided, ...refused].map((entry) => entry.member);
        if (error instanceof StreamVersionConflictError && attempt < this.limits.maxAttempts) {
          members = again;
          await conflictBackoff(attempt);
          continue;
        }
        if (rolledBackForOnePlan(error)) return [...alone, ...again];
        for (const member of again) member.reject(error);
        return alone;
      }
      const last = decided.at(-1);
      if (last) {
        const after = last.decision.cached[0]!;
        this.cache.remember(ledgerId, { state: after.state, version: after.version });
      }
      for (const { member, decision } of decided) member.resolve(decision.result);
      for (const { member, error } of refused) {
        const mayBeStale = attempt === 1 && member.handler.firstAttemptOptimistic;
        if (mayBeStale) alone.push(member);
        else member.reject(error);
      }
      return alone;
    }
  }

  /** Each member decided on the state the members before it leave, in arrival order. */
  private async decideAll(
    ledgerId: string,
    members: readonly Waiting[],
    attempt: number,
    alone: Waiting[],
  ): Promise<{ decided: Decided[]; refused: Refused[] }> {
    const decided: Decided[] = [];
    const refused: Refused[] = [];
    const streams = new Set<string>();
    let given: GivenStates | undefined;
    for (const member of members) {
      let decision: Decision<unknown>;
      try {
        decision = await member.handler.decide(member.command, attempt, given);
      } catch (error) {
        if (error instanceof DomainError) refused.push({ member, error });
        else member.reject(error);
        continue;
      }
      if (!joins(ledgerId, decision, streams)) {
        alone.push(member);
        continue;
      }
      for (const append of decision.plan.appends)
        if (append.streamId !== ledgerId) streams.add(append.streamId);
      decided.push({ member, decision });
      const after = decision.cached[0]!;
      given = new Map<string, LoadedAggregate<unknown>>([
        [ledgerId, { state: after.state, version: after.version }],
      ]);
    }
    return { decided, refused };
  }
}

/** Whether a decision can share the batch's append: it caches and writes this ledger alone, and no stream of it is taken. */
function joins(ledgerId: string, decision: Decision<unknown>, taken: ReadonlySet<string>): boolean {
  const { appends } = decision.plan;
  return (
    decision.cached.length === 1 &&
    decision.cached[0]!.streamId === ledgerId &&
    appends.filter((append) => append.streamId === ledgerId).length === 1 &&
    appends.every((append) => append.streamId === ledgerId || !taken.has(append.streamId))
  );
}

/** The batch as one plan: the ledger's events in one append at the first member's expected version. */
function mergedPlan(ledgerId: string, decided: readonly Decided[]): WritePlan {
  const plans = decided.map((entry) => entry.decision.plan);
  const ledgerAppends = plans.map((plan) => plan.appends.find((append) => append.streamId === ledgerId)!);
  ledgerAppends.reduce((previous, next) => {
    // Each member decided on the state the one before it left: versions follow on exactly.
    if (next.expectedVersion !== (previous.expectedVersion as number) + previous.events.length) {
      throw new Error(`batched decisions on ${ledgerId} do not follow on`);
    }
    return next;
  });
  const ledger: StreamAppend = {
    ...ledgerAppends[0]!,
    events: ledgerAppends.flatMap((append) => append.events),
  };
  const bounds = plans.flatMap((plan) => plan.maxBalanceLagEvents ?? []);
  return {
    appends: [
      ledger,
      ...plans.flatMap((plan) => plan.appends.filter((append) => append.streamId !== ledgerId)),
    ],
    rows: plans.flatMap((plan) => plan.rows),
    ...(bounds.length > 0 ? { maxBalanceLagEvents: Math.min(...bounds) } : {}),
  };
}
