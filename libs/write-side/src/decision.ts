import type { LoadedAggregate } from './aggregate-streams';
import type { WritePlan } from './write-plan';

/** A long-lived stream's state as it will be once the plan commits (the aggregate cache's next entry). */
export interface CachedStateAfter {
  readonly streamId: string;
  readonly state: unknown;
  /** The stream's version after the plan: the expected version plus the events the plan appends. */
  readonly version: number;
}

/**
 * What a command handler decides: the plan to commit and the result its caller gets once the plan
 * has committed. `cached` names the ledger and float streams the decision read from the aggregate
 * cache and writes: the write path commits the commands of one process on them one at a time, and
 * gives the cache their new states after the commit.
 */
export interface Decision<Result> {
  readonly plan: WritePlan;
  readonly result: Result;
  readonly cached: readonly CachedStateAfter[];
}

/**
 * A handler that decides: loads state, runs the pure deciders of libs/domain, and returns a
 * Decision. `attempt` counts from 1; every attempt after the first follows a version conflict or
 * a refusal decided on cached state, and reads everything afresh.
 */
/**
 * States a decision must start from instead of loading them: in a ledger batch, the ledger as the
 * members decided before it leave it (LedgerBatches).
 */
export type GivenStates = ReadonlyMap<string, LoadedAggregate<unknown>>;

export interface Decides<Command, Result> {
  decide(command: Command, attempt: number, given?: GivenStates): Promise<Decision<Result>>;
  /**
   * Whether a first attempt decides on cached state it did not read (Create's trusted ledger): its
   * refusal may be stale (a cancel or a limit change since), so it is decided again afresh before
   * it reaches the caller.
   */
  readonly firstAttemptOptimistic?: boolean;
  /**
   * The ledgers and floats the command writes, when the command names them (a merchant's create
   * or cancel): their locks are then held from the first decision on, not only around its commit.
   */
  locksFor?(command: Command): readonly string[];
  /**
   * The ledger whose commands this one may be decided and committed with (a create's account
   * ledger, LedgerBatches). Its decision must then cache and write that ledger only, and decide
   * on the ledger state it is given when given one.
   */
  batchesOn?(command: Command): string;
}
