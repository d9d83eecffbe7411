import { SqlClient, SqlQueryable } from '@payouts/database';
import { GroupedWrites, writeRow } from '@payouts/write-side';
import { IDEMPOTENCY_RETENTION_DAYS } from './idempotency-key';
import {
  CLAIM_ROWS,
  COMPLETE_ROWS,
  DEFAULT_LEASE_MS,
  EXISTS_SQL,
  FIRST_ANSWER_ROWS,
  INSPECT_SQL,
  MAX_BEGIN_ROUNDS,
  MAX_LEASE_MS,
  MAX_PURGE_BATCHES,
  PURGE_BATCH_ROWS,
  PURGE_SQL,
  RELEASE_SQL,
  RELEASE_UNCLAIMED_SQL,
  SHA256_HEX,
  TAKE_OVER_SQL,
} from './idempotency-statements';
import {
  checkedKeyParams,
  checkedStatus,
  IdempotencyDecision,
  IdempotencyKeyTakenError,
  IdempotencyScope,
  IdempotencyStoreOptions,
  KeyRow,
  parseStoredBody,
  storableBody,
} from './idempotency-values';

/**
 * Idempotency keys in PostgreSQL (PGlite or a server), safe across gateway processes: the key is
 * claimed with INSERT ... ON CONFLICT DO NOTHING, and an attempt whose lease ran out is taken over
 * with a conditional UPDATE, so of many concurrent requests with one key exactly one proceeds.
 */
export class IdempotencyStore {
  private readonly leaseMs: number;
  private readonly now: (() => Date) | undefined;
  /**
   * Claims of concurrent requests commit together (one round trip, one COMMIT). A claim is one
   * INSERT ... ON CONFLICT, atomic alone and the same in a shared transaction, and it answers after
   * that COMMIT, so the key is held, for every process to see, before the work starts.
   */
  private readonly claims: GroupedWrites;

  constructor(
    private readonly db: SqlClient,
    options: IdempotencyStoreOptions = {},
  ) {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isSafeInteger(leaseMs) || leaseMs < 1 || leaseMs > MAX_LEASE_MS) {
      throw new RangeError(`leaseMs must be an integer from 1 to ${MAX_LEASE_MS}`);
    }
    this.leaseMs = leaseMs;
    this.now = options.now;
    this.claims = new GroupedWrites(db);
  }

  /**
   * Claims the key: inserts it in flight with a lease, or answers from the existing row. An
   * in-flight row whose lease has ended (the process died, or the attempt was released) is taken
   * over: 'proceed' with its stored resource id and retryOfUnresolved true. A row first used more
   * than IDEMPOTENCY_RETENTION_DAYS ago is no longer kept (docs/design.md#idempotency), purged or not: it is
   * replaced as if the key were new ('proceed' with the proposed resource id).
   */
  async begin(
    scope: IdempotencyScope,
    key: string,
    hash: string,
    proposedResourceId: string,
  ): Promise<IdempotencyDecision> {
    const keyParams = checkedKeyParams(scope, key);
    if (!SHA256_HEX.test(hash))
      throw new RangeError('hash must be a SHA-256 in lower-case hex (requestHash)');
    if (typeof proposedResourceId !== 'string' || proposedResourceId.length === 0) {
      throw new RangeError('proposedResourceId must be a non-empty string');
    }
    for (let round = 0; round < MAX_BEGIN_ROUNDS; round += 1) {
      const now = this.nowParam();
      const claimed = await this.claims.writeRow<{ resource_id: string }>(
        CLAIM_ROWS,
        [...keyParams, hash, proposedResourceId, now, this.leaseMs],
        // One statement cannot claim a key twice: the same key waits for the next group.
        [JSON.stringify(keyParams)],
      );
      if (claimed.length === 1) {
        return { kind: 'proceed', resourceId: proposedResourceId, retryOfUnresolved: false };
      }

      const found = await this.db.queryPrepared<KeyRow>(INSPECT_SQL, [
        ...keyParams,
        this.nowParam(),
        IDEMPOTENCY_RETENTION_DAYS,
      ]);
      const row = found.rows[0];
      // Purged since the claim, or aged past retention in between: claim again (and replace it).
      if (!row || row.expired) continue;
      if (row.request_hash !== hash) return { kind: 'mismatch' };
      if (row.state === 'completed') {
        if (row.response_status === null) throw new Error('completed idempotency key without a status');
        return { kind: 'replay', status: row.response_status, body: parseStoredBody(row.response_body) };
      }
      if (!row.lease_ended) return { kind: 'in_progress' };

      const taken = await this.db.queryPrepared<{ resource_id: string }>(TAKE_OVER_SQL, [
        ...keyParams,
        hash,
        this.nowParam(),
        this.leaseMs,
      ]);
      const takenRow = taken.rows[0];
      if (takenRow) return { kind: 'proceed', resourceId: takenRow.resource_id, retryOfUnresolved: true };
      // Another retry took it over or completed it in between: look again.
    }
    throw new Error(`idempotency key kept changing during ${MAX_BEGIN_ROUNDS} rounds of begin`);
  }

  /**
   * The key and its answer, inserted inside the work's transaction for an attempt at an unused
   * key: they commit together or not at all. Throws IdempotencyKeyTakenError, which rolls the work
   * back, if another request holds the key by now.
   */
  async claimWithin(
    tx: SqlQueryable,
    scope: IdempotencyScope,
    key: string,
    attempt: { hash: string; resourceId: string },
    status: number,
    body: unknown,
  ): Promise<void> {
    const inserted = await writeRow(tx, FIRST_ANSWER_ROWS, [
      ...checkedKeyParams(scope, key),
      attempt.hash,
      attempt.resourceId,
      checkedStatus(status),
      storableBody(body),
      this.nowParam(),
    ]);
    if (inserted.length === 0) throw new IdempotencyKeyTakenError();
  }

  /** claimWithin on its own, for an unclaimed attempt's refusal: false if the key was taken. */
  async storeFirstAnswer(
    scope: IdempotencyScope,
    key: string,
    attempt: { hash: string; resourceId: string },
    status: number,
    body: unknown,
  ): Promise<boolean> {
    try {
      await this.claimWithin(this.db, scope, key, attempt, status, body);
      return true;
    } catch (error) {
      if (error instanceof IdempotencyKeyTakenError) return false;
      throw error;
    }
  }

  /** release, for an unclaimed attempt (see RELEASE_UNCLAIMED_SQL). */
  async releaseUnclaimed(
    scope: IdempotencyScope,
    key: string,
    attempt: { hash: string; resourceId: string },
  ): Promise<void> {
    await this.db.query(RELEASE_UNCLAIMED_SQL, [
      ...checkedKeyParams(scope, key),
      attempt.hash,
      attempt.resourceId,
      this.nowParam(),
    ]);
  }

  /**
   * Stores the final answer, success or rejection (a rejected create stays rejected for its key),
   * and ends the lease. If the key was already completed (a slow attempt whose lease was taken
   * over), the first answer stays.
   */
  async complete(scope: IdempotencyScope, key: string, status: number, body: unknown): Promise<void> {
    await this.completeWith(this.db, scope, key, status, body);
  }

  /**
   * complete, inside the caller's transaction: the work and its stored answer commit together,
   * or neither does (and the key stays in flight for the unresolved path).
   */
  completeWithin(
    tx: SqlQueryable,
    scope: IdempotencyScope,
    key: string,
    status: number,
    body: unknown,
  ): Promise<void> {
    return this.completeWith(tx, scope, key, status, body);
  }

  private async completeWith(
    db: SqlQueryable,
    scope: IdempotencyScope,
    key: string,
    status: number,
    body: unknown,
  ): Promise<void> {
    const keyParams = checkedKeyParams(scope, key);
    const updated = await writeRow(db, COMPLETE_ROWS, [
      ...keyParams,
      checkedStatus(status),
      storableBody(body),
      this.nowParam(),
    ]);
    if (updated.length === 0) await this.requireExisting(db, keyParams, 'complete');
  }

  /**
   * The outcome is unknown (for example the store timed out after the append was sent): the key
   * stays in flight with its resource id and the lease ends, so the next retry proceeds at once
   * with the same resource id (and finds out what happened to it). Releasing a completed key
   * changes nothing.
   */
  async release(scope: IdempotencyScope, key: string): Promise<void> {
    const keyParams = checkedKeyParams(scope, key);
    const updated = await this.db.query<{ resource_id: string }>(RELEASE_SQL, keyParams);
    if (updated.rows.length === 0) await this.requireExisting(this.db, keyParams, 'release');
  }

  /** Deletes keys first used more than IDEMPOTENCY_RETENTION_DAYS ago; returns how many. */
  async purgeExpired(): Promise<number> {
    const now = this.nowParam();
    let deleted = 0;
    for (let batch = 0; batch < MAX_PURGE_BATCHES; batch += 1) {
      const result = await this.db.query(PURGE_SQL, [now, IDEMPOTENCY_RETENTION_DAYS, PURGE_BATCH_ROWS]);
      deleted += result.rowCount;
      if (result.rowCount < PURGE_BATCH_ROWS) break;
    }
    return deleted;
  }

  /** The time every statement of this store takes: the injected clock's, or null for the database's. */
  nowParam(): string | null {
    return this.now ? this.now().toISOString() : null;
  }

  private async requireExisting(db: SqlQueryable, keyParams: string[], operation: string): Promise<void> {
    const existing = await db.query<{ state: string }>(EXISTS_SQL, keyParams);
    if (existing.rows.length === 0) {
      throw new Error(`${operation}: no idempotency key was begun for this scope and key`);
    }
  }
}
