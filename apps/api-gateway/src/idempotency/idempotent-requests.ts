import { Inject, Injectable, Logger } from '@nestjs/common';
import type { SqlQueryable } from '@payouts/database';
import { DomainError } from '@payouts/domain';
import { StreamVersionConflictError } from '@payouts/event-store';
import { IDEMPOTENCY_KEY_PATTERN, IdempotencyKeyTakenError, requestHash } from '@payouts/idempotency';
import type { IdempotencyDecision, IdempotencyScope, IdempotencyStore } from '@payouts/idempotency';
import { ApiError, toApiError } from '@payouts/http';
import type { KeyUseRead, PayoutPrincipal } from '../auth/payout-principal';
import { IDEMPOTENCY } from '../gateway.tokens';

/** What a payout POST answers: `stored` is what a replay answers (Create's has `payout_url: null`). */
export interface IdempotentAnswer {
  status: number;
  body: unknown;
  stored?: unknown;
}

/** Stores the answer inside the work's own transaction, so the work and its answer commit together. */
export type CompleteWithin = (tx: SqlQueryable, answer: IdempotentAnswer) => Promise<void>;

export type IdempotentWork = (
  resourceId: string,
  retryOfUnresolved: boolean,
  completeWithin: CompleteWithin,
) => Promise<IdempotentAnswer>;

/** Where a request's outcome goes: a key claimed before the work, or one the work inserts. */
interface KeyHold {
  /** Stores the answer inside the work's transaction. */
  completeWithin(tx: SqlQueryable, status: number, body: unknown): Promise<void>;
  /** Stores a refusal as the key's answer; false when another request took the key meanwhile. */
  keepRefusal(status: number, body: unknown): Promise<boolean>;
  /** Stores the answer of work that did not store it itself. */
  completeAfter(status: number, body: unknown): Promise<void>;
  /** After contention that outlasted the retries: nothing was written, the key is for the retry. */
  freeAfterConflict(): Promise<void>;
  /** The outcome cannot be known: the key stays for the retry, with its resource id. */
  release(): Promise<void>;
}

export interface IdempotentResult {
  status: number;
  body: unknown;
  replayed: boolean;
}

/**
 * ARCHITECTURE 3, idempotency: every payout POST runs through here. A key is scoped to account,
 * environment, method and path; a replay answers the stored status and body; a rejected request
 * stays rejected for its key; the same key with another body is 422; a key still in flight 409.
 * When the outcome cannot be known (anything but a clear refusal), the key is released with the
 * resource id chosen for it, and the caller gets 503 attempt_unresolved: a retry then finishes or
 * returns that same resource, never a second one.
 */
@Injectable()
export class IdempotentRequests {
  private readonly logger = new Logger('Idempotency');
  /** Keys of unclaimed attempts under way in this process (runUnclaimed). */
  private readonly unclaimedInFlight = new Set<string>();

  constructor(@Inject(IDEMPOTENCY) private readonly store: IdempotencyStore) {}

  async run(
    principal: PayoutPrincipal,
    request: { method: string; path: string; key: string | undefined; body: unknown },
    proposedResourceId: string,
    work: IdempotentWork,
    options: {
      /** Turns a stored answer back into the answer first sent (e.g. opens a sealed URL). */
      replayed?: (stored: unknown) => unknown;
      /**
       * The work always stores its answer through completeWithin, in the transaction that does it
       * (Create): a key seen for the first time is then not claimed in a transaction of its own
       * before the work, but inserted with the answer (KEY_USE_BESIDE_CREDENTIAL_SQL).
       */
      answersWithin?: boolean;
    } = {},
  ): Promise<IdempotentResult> {
    const replayed = options.replayed ?? ((stored: unknown) => stored);
    const key = this.requireKey(request.key);
    const scope: IdempotencyScope = {
      accountId: principal.accountId,
      environment: principal.environment,
      method: request.method,
      path: request.path,
    };
    const hash = requestHash(request.method, request.path, request.body ?? null);
    // A key the guard read unused (ReadsKeyUseWithCredential) is tried unclaimed; any other goes
    // through begin: one with a row, and one whose use was not read (that costs a commit, not an
    // answer: the claim decides as it always does).
    if (options.answersWithin && readUnused(principal.keyUseReadWithCredential, scope, key)) {
      const unclaimed = await this.runUnclaimed(scope, key, hash, proposedResourceId, work, replayed);
      if (unclaimed !== undefined) return unclaimed;
      // Another request took the key meanwhile: this one answers as begin decides.
    }
    const decision = await this.store.begin(scope, key, hash, proposedResourceId);
    if (decision.kind !== 'proceed') return answerDecided(decision, replayed);
    const claimed: KeyHold = {
      completeWithin: (tx, status, body) => this.store.completeWithin(tx, scope, key, status, body),
      keepRefusal: async (status, body) => {
        await this.store.complete(scope, key, status, body);
        return true;
      },
      completeAfter: (status, body) => this.store.complete(scope, key, status, body),
      // Nothing was written; that is no refusal of the request, so the key is freed for its retry.
      freeAfterConflict: () => this.store.release(scope, key),
      release: () => this.store.release(scope, key),
    };
    const result = await this.perform(claimed, work, decision.resourceId, decision.retryOfUnresolved);
    // A claimed key is this request's until it answers; should anything say otherwise, the outcome
    // is treated as unknown rather than trusted.
    if (result === undefined)
      throw await this.unresolved(claimed, new Error('a claimed key was reported taken by another request'));
    return result;
  }

  /**
   * The first attempt at a key not seen before, with no claim of its own: the work's transaction
   * inserts the key with the answer. Undefined when another request took the key meanwhile (the
   * work then wrote nothing). Attempts at one key in this process are one at a time (409 to the
   * others, as a claim would answer); across processes the key's primary key decides.
   */
  private async runUnclaimed(
    scope: IdempotencyScope,
    key: string,
    hash: string,
    resourceId: string,
    work: IdempotentWork,
    replayed: (stored: unknown) => unknown,
  ): Promise<IdempotentResult | undefined> {
    const local = JSON.stringify([scope.accountId, scope.environment, scope.method, scope.path, key]);
    if (this.unclaimedInFlight.has(local)) return answerDecided({ kind: 'in_progress' }, replayed);
    this.unclaimedInFlight.add(local);
    try {
      const attempt = { hash, resourceId };
      const unclaimed: KeyHold = {
        completeWithin: (tx, status, body) => this.store.claimWithin(tx, scope, key, attempt, status, body),
        keepRefusal: (status, body) => this.store.storeFirstAnswer(scope, key, attempt, status, body),
        completeAfter: () => {
          throw new Error('the work did not store its answer within its transaction');
        },
        // Rolled back: nothing was written, and the key stays unused for the retry.
        freeAfterConflict: () => Promise.resolve(),
        release: () => this.store.releaseUnclaimed(scope, key, attempt),
      };
      return await this.perform(unclaimed, work, resourceId, false);
    } finally {
      this.unclaimedInFlight.delete(local);
    }
  }

  /**
   * Runs the work on a held key and stores its outcome there: the answer, a refusal (a rejected
   * request stays rejected for its key, spec 4.2 rule 4), a freed key after contention, or a
   * released one when the outcome cannot be known. Undefined when the key turned out taken.
   */
  private async perform(
    hold: KeyHold,
    work: IdempotentWork,
    resourceId: string,
    retryOfUnresolved: boolean,
  ): Promise<IdempotentResult | undefined> {
    // Set once the work stored its answer in its own transaction; only a committed one gets here.
    let completedWithin = false;
    const completeWithin: CompleteWithin = async (tx, answer) => {
      await hold.completeWithin(tx, answer.status, answer.stored ?? answer.body);
      completedWithin = true;
    };
    let answer: IdempotentAnswer;
    try {
      answer = await work(resourceId, retryOfUnresolved, completeWithin);
    } catch (error) {
      if (error instanceof IdempotencyKeyTakenError) return undefined;
      const refusal = keptRefusal(error);
      if (refusal) {
        if (!(await hold.keepRefusal(refusal.status, refusal.toBody()))) return undefined;
        throw refusal;
      }
      if (error instanceof StreamVersionConflictError) {
        // Contention outlasted the retries. The append rolled back, so the outcome is known.
        await hold.freeAfterConflict();
        throw toApiError(error);
      }
      throw await this.unresolved(hold, error);
    }
    try {
      if (!completedWithin) await hold.completeAfter(answer.status, answer.stored ?? answer.body);
    } catch (error) {
      // The work is done but its answer is not stored: the retry finds the resource by its id.
      throw await this.unresolved(hold, error);
    }
    return { status: answer.status, body: answer.body, replayed: false };
  }

  /**
   * The request's Idempotency-Key, or the refusal of a missing or malformed one. A handler whose
   * own checks come before `run` calls this first, so a missing key is always reported as such.
   */
  requireKey(key: string | undefined): string {
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

  /**
   * A refusal decided before the handler ran (the guard's account and scope checks, which run on
   * every request) is kept for a new key like any other refusal, so the create stays rejected for
   * its key once the cause is fixed (spec 4.2, rule 4). A key that already has an answer keeps it,
   * and one released after an unknown outcome is released again untouched: its earlier attempt
   * may have created the payout, and only a retry that runs may say so.
   */
  async keepRefusal(
    owner: { accountId: string; environment: PayoutPrincipal['environment'] },
    request: { method: string; path: string; key: string | undefined; body: unknown },
    proposedResourceId: string,
    refusal: ApiError,
  ): Promise<void> {
    const key = request.key;
    if (key === undefined || !IDEMPOTENCY_KEY_PATTERN.test(key)) return; // nothing to keep it for
    const scope: IdempotencyScope = { ...owner, method: request.method, path: request.path };
    const hash = requestHash(request.method, request.path, request.body ?? null);
    const decision = await this.store.begin(scope, key, hash, proposedResourceId);
    if (decision.kind !== 'proceed') return;
    if (decision.retryOfUnresolved) await this.store.release(scope, key);
    else await this.store.complete(scope, key, refusal.status, refusal.toBody());
  }

  /** Releases the key (keeping its resource id for the retry) and says the outcome is unknown. */
  private async unresolved(hold: KeyHold, cause: unknown): Promise<ApiError> {
    await hold.release().catch((releaseError: unknown) => {
      this.logger.error(`could not release an unresolved key: ${String(releaseError)}`);
    });
    this.logger.warn(
      `attempt outcome unknown, key released: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    return new ApiError(
      503,
      'attempt_unresolved',
      'the outcome of this attempt is not known; retry with the same Idempotency-Key (a created payout can also be found by merchant_reference in List Payouts)',
      undefined,
      { 'Retry-After': '1' },
    );
  }
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

/** Whether the guard read this very scope's key and found no row for it (ReadsKeyUseWithCredential). */
function readUnused(read: KeyUseRead | undefined, scope: IdempotencyScope, key: string): boolean {
  return (
    read !== undefined &&
    !read.used &&
    read.method === scope.method &&
    read.path === scope.path &&
    read.key === key
  );
}
