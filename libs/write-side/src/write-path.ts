import { Injectable } from '@nestjs/common';
import { DomainError } from '@payouts/domain';
import { StreamVersionConflictError } from '@payouts/event-store';
import { OverloadedError } from '@payouts/http';
import { AggregateCache } from './aggregate-cache';
import { Committer } from './committer';
import type { Decides, Decision } from './decision';
import { LedgerBatches } from './ledger-batches';
import { LedgerLocks } from './ledger-locks';
import { conflictBackoff, MAX_CONFLICT_ATTEMPTS } from './retry-on-conflict';
import { isEmptyPlan } from './write-plan';

/**
 * The write path of every money-moving command: decide → commit → answer.
 *
 * The handler decides (a Decision: the plan as data and the result); the committer writes the
 * plan; the aggregate cache learns the ledger and float states the plan leaves. A decision that
 * writes a ledger or a float commits under that stream's lock, so the commands of one process do
 * not race each other into conflicts; across processes the expected versions decide. On a
 * version conflict the command is decided again on fresh state (a refusal that became true
 * meanwhile is then reported instead), holding the locks its last decision needed, up to
 * MAX_CONFLICT_ATTEMPTS times; after that the caller gets the conflict (409 concurrent_update).
 * A command that names a ledger to batch on (a create) is decided and committed with the other
 * commands waiting on that ledger (LedgerBatches), in a queue bounded to about a second of work.
 */
@Injectable()
export class WritePath {
  private readonly batches: LedgerBatches;

  constructor(
    private readonly committer: Committer,
    private readonly cache: AggregateCache,
    private readonly locks: LedgerLocks,
  ) {
    this.batches = new LedgerBatches(committer, cache, locks, (command, handler) =>
      this.executeAlone(command, handler),
    );
  }

  execute<Command, Result>(command: Command, handler: Decides<Command, Result>): Promise<Result> {
    const ledgerId = handler.batchesOn?.(command);
    if (ledgerId !== undefined) return this.batches.submit(ledgerId, command, handler);
    return this.executeAlone(command, handler);
  }

  /**
   * Refuses at once (503 overloaded) a command its ledger has no room to queue, before any work
   * is done for it: the write path's own check, declared for a route to call first.
   */
  refuseIfOverloaded(ledgerId: string): void {
    if (!this.batches.admits(ledgerId)) throw new OverloadedError(`ledger ${ledgerId}`);
  }

  /** Decides and commits the command on its own, retrying version conflicts on fresh state. */
  async executeAlone<Command, Result>(command: Command, handler: Decides<Command, Result>): Promise<Result> {
    let held: readonly string[] = handler.locksFor?.(command) ?? [];
    for (let attempt = 1; ; attempt += 1) {
      let needed: readonly string[] = held;
      try {
        return await this.locks.runAll(held, async () => {
          const decision = await handler.decide(command, attempt);
          needed = decision.cached.map((entry) => entry.streamId);
          if (needed.every((key) => held.includes(key))) return this.commit(decision, attempt);
          // Decided unlocked (a first attempt), or needing more than the last attempt did: the
          // keys are taken in their one order, around the commit alone.
          if (held.length > 0) throw new StreamVersionConflictError(needed.join(','), 0, 0);
          return this.locks.runAll(needed, () => this.commit(decision, attempt));
        });
      } catch (error) {
        held = needed;
        const staleRefusal = attempt === 1 && handler.firstAttemptOptimistic && error instanceof DomainError;
        if (staleRefusal) continue;
        if (!(error instanceof StreamVersionConflictError) || attempt >= MAX_CONFLICT_ATTEMPTS) throw error;
        await conflictBackoff(attempt);
      }
    }
  }

  /** Commits one decision and answers its result; the first attempt commits in a group. */
  async commit<Result>(decision: Decision<Result>, attempt = 1): Promise<Result> {
    if (isEmptyPlan(decision.plan)) return decision.result;
    await this.committer.commit(decision.plan, { grouped: attempt === 1 });
    for (const entry of decision.cached) {
      this.cache.remember(entry.streamId, { state: entry.state, version: entry.version });
    }
    return decision.result;
  }
}
