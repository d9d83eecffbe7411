import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@payouts/domain';
import { EventStoreUnavailableError, StreamVersionConflictError } from '@payouts/event-store';
import { ApiError, toApiError } from '@payouts/http';
import type { IdempotencyHold } from './idempotency-hold';
import { IDEMPOTENCY_KEY_PATTERN, requestHash } from './idempotency-key';
import { IdempotencyStore } from './idempotency-store';
import { IdempotencyDecision, IdempotencyKeyTakenError, IdempotencyScope } from './idempotency-values';
import { IDEMPOTENCY_STORE } from './idempotency.tokens';

/** One idempotent POST as the route received it. */
export interface IdempotentRequest {
  owner: Pick<IdempotencyScope, 'accountId' | 'environment'>;
  /** The idempotency scope's path (the production path, the same in both environments). */
  path: string;
  key: string | undefined;
  /** What the request hash covers: the body as sent, or the parameters the route read from it. */
  body: unknown;
  /** The id of the resource a first attempt creates or names. */
  resourceId: string;
  /**
   * The work always puts its answer in its own plan (Create): a first attempt then does not claim
   * the key in a commit of its own, but inserts it with the answer, a commit fewer per request.
   * If the key has a row by then, the commit rolls back and the request goes through begin.
   */
  firstAttemptUnclaimed?: boolean;
}

/** What the work answers. `committed`: its plan stored the answer (answerRow) with the work. */
export interface IdempotentAnswer {
  status: number;
  body: unknown;
  /** What a replay answers, when not `body` (Create's has `payout_url: null`). */
  stored?: unknown;
  committed: boolean;
}

export type IdempotentWork = (hold: IdempotencyHold) => Promise<IdempotentAnswer>;

export interface IdempotentResult {
  status: number;
  body: unknown;
  replayed: boolean;
}

const attemptUnresolved = () =>
  new ApiError(
    503,
    'attempt_unresolved',
    'the outcome of this attempt is not known; retry with the same Idempotency-Key (a created payout can also be found by merchant_reference in List Payouts)',
    undefined,
    { 'Retry-After': '1' },
  );

/**
 * Idempotency (docs/design.md#idempotency) in one entry point: `handle` answers a replay from the store,
 * refuses a key in flight (409) or reused with another request (422), or runs the work with a
 * hold on the key, whose answer the work's plan commits with the work. A rejected request stays
 * rejected for its key; after contention or overload nothing was written and the key is freed for
 * the retry; when the outcome cannot be known the key is released with its resource id and the
 * caller gets 503 attempt_unresolved: a retry then finishes or returns that same resource.
 */
@Injectable()
export class IdempotentRequests {
  private readonly logger = new Logger('Idempotency');
  /** Keys of unclaimed first attempts under way in this process. */
  private readonly unclaimedInFlight = new Set<string>();

  constructor(@Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore) {}

  async handle(
    request: IdempotentRequest,
    work: IdempotentWork,
    options: { replayed?: (stored: unknown) => unknown } = {},
  ): Promise<IdempotentResult> {
    const replayed = options.replayed ?? ((stored: unknown) => stored);
    const key = requireIdempotencyKey(request.key);
    const scope: IdempotencyScope = { ...request.owner, method: 'POST', path: request.path };
    const hash = requestHash('POST', request.path, request.body ?? null);
    const hold = { scope, key, hash, resourceId: request.resourceId, at: this.store.nowParam() };
    // A first attempt at a key goes unclaimed (its commit inserts the key with the answer) unless
    // another attempt at the same key is under way in this process: that one, and any key with a
    // row by then (a replay, a released attempt, another process's claim), goes through begin.
    const local = JSON.stringify([scope.accountId, scope.environment, scope.path, key]);
    if (request.firstAttemptUnclaimed && !this.unclaimedInFlight.has(local)) {
      this.unclaimedInFlight.add(local);
      try {
        const first = await this.perform({ ...hold, claimed: false, retryOfUnresolved: false }, work);
        if (first !== undefined) return first;
      } finally {
        this.unclaimedInFlight.delete(local);
      }
    }
    const decision = await this.store.begin(scope, key, hash, request.resourceId);
    if (decision.kind !== 'proceed') return answerDecided(decision, replayed);
    const claimed: IdempotencyHold = {
      ...hold,
      resourceId: decision.resourceId,
      claimed: true,
      retryOfUnresolved: decision.retryOfUnresolved,
    };
    const result = await this.perform(claimed, work);
    // A claimed key is this request's until it answers; should anything say otherwise, the outcome
    // is treated as unknown rather than trusted.
    if (result === undefined) {
      throw await this.unresolved(claimed, new Error('a claimed key was reported taken by another request'));
    }
    return result;
  }

  /**
   * A refusal decided before the work could run (the guard's account and scope checks) is kept
   * for a new key like any other refusal, so a create stays rejected for its key once the cause is
   * fixed (docs/design.md#idempotency). A key that already has an answer keeps it, and one released after an
   * unknown outcome is released again untouched: only a retry that runs may say what happened.
   */
  async keepRefusal(request: IdempotentRequest, refusal: ApiError): Promise<void> {
    const key = request.key;
    if (key === undefined || !IDEMPOTENCY_KEY_PATTERN.test(key)) return; // nothing to keep it for
    const scope: IdempotencyScope = { ...request.owner, method: 'POST', path: request.path };
    const hash = requestHash('POST', request.path, request.body ?? null);
    const decision = await this.store.begin(scope, key, hash, request.resourceId);
    if (decision.kind !== 'proceed') return;
    if (decision.retryOfUnresolved) await this.store.release(scope, key);
    else await this.store.complete(scope, key, refusal.status, refusal.toBody());
  }

  /** Runs the work on a held key and settles the key; undefined when the key turned out taken. */
  private async perform(hold: IdempotencyHold, work: IdempotentWork): Promise<IdempotentResult | undefined> {
    let answer: IdempotentAnswer;
    try {
      answer = await work(hold);
    } catch (error) {
      if (error instanceof IdempotencyKeyTakenError) return undefined;
      const refusal = keptRefusal(error);
      if (refusal) {
        if (!(await this.storeAnswer(hold, refusal.status, refusal.toBody()))) return undefined;
        throw refusal;
      }
      if (nothingWritten(error)) {
        // Contention that outlasted the retries, or a queue past its bound: the commit never
        // happened, which is no refusal of the request, so the key is freed for its retry.
        if (hold.claimed) await this.store.release(hold.scope, hold.key);
        throw toApiError(error);
      }
      throw await this.unresolved(hold, error);
    }
    try {
      if (!answer.committed) await this.storeAnswer(hold, answer.status, answer.stored ?? answer.body);
    } catch (error) {
      // The work is done but its answer is not stored: the retry finds the resource by its id.
      throw await this.unresolved(hold, error);
    }
    return { status: answer.status, body: answer.body, replayed: false };
  }

  /** Stores an answer on its own; false when an unclaimed key was taken by another request meanwhile. */
  private async storeAnswer(hold: IdempotencyHold, status: number, body: unknown): Promise<boolean> {
    if (!hold.claimed) return this.store.storeFirstAnswer(hold.scope, hold.key, hold, status, body);
    await this.store.complete(hold.scope, hold.key, status, body);
    return true;
  }

  /** Releases the key (keeping its resource id for the retry) and says the outcome is unknown. */
  private async unresolved(hold: IdempotencyHold, cause: unknown): Promise<ApiError> {
    const release = hold.claimed
      ? this.store.release(hold.scope, hold.key)
      : this.store.releaseUnclaimed(hold.scope, hold.key, hold);
    await release.catch((releaseError: unknown) => {
      this.logger.error(`could not release an unresolved key: ${String(releaseError)}`);
    });
    this.logger.warn(
      `attempt outcome unknown, key released: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    return attemptUnresolved();
  }
}

/**
 * The request's Idempotency-Key, or the refusal of a missing or malformed one. A route whose own
 * checks come before `handle` calls this first, so a missing key is always reported as such.
 */
export function requireIdempotencyKey(key: string | undefined): string {
  if (key === undefined || key === '') {
    throw new ApiError(
      400,
      'idempotency_key_required',
      'payout POST requests need an Idempotency-Key header',
    );
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ApiError(
      400,
      'invalid_request',
      'Idempotency-Key must be 1 to 255 printable characters',
      'Idempotency-Key',
    );
  }
  return key;
}

/** The answer to a key that already has one (or is held): everything begin decides but proceed. */
function answerDecided(
  decision: Exclude<IdempotencyDecision, { kind: 'proceed' }>,
  replayed: (stored: unknown) => unknown,
): IdempotentResult {
  switch (decision.kind) {
    case 'replay':
      return { status: decision.status, body: replayed(decision.body), replayed: true };
    case 'in_progress':
      throw new ApiError(
        409,
        'idempotency_key_in_progress',
        'a request with this Idempotency-Key is still in progress',
        undefined,
        { 'Retry-After': '1' },
      );
    case 'mismatch':
      throw new ApiError(
        422,
        'idempotency_key_reused',
        'this Idempotency-Key was used with a different request',
      );
  }
}

/** A clear refusal of the request (under 500), which its key keeps; undefined for anything else. */
function keptRefusal(error: unknown): ApiError | undefined {
  if (!(error instanceof ApiError || error instanceof DomainError)) return undefined;
  const refusal = toApiError(error);
  return refusal.status < 500 ? refusal : undefined;
}

/** A failure that rolled back before anything was written, and says so for certain. */
function nothingWritten(error: unknown): boolean {
  return (
    error instanceof StreamVersionConflictError ||
    (error instanceof EventStoreUnavailableError && error.nothingWritten) ||
    toApiError(error).code === 'overloaded'
  );
}
