import {
  GroupedWrites,
  OneWriterRefusal,
  RowStatement,
  SqlClient,
  SqlQueryable,
  writeRow,
} from '@payouts/database';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_RETENTION_DAYS } from './idempotency-key';

/** A key means one thing only within its account, environment, method and path (ARCHITECTURE 3). */
export interface IdempotencyScope {
  accountId: string;
  environment: 'production' | 'sandbox';
  method: string;
  path: string;
}

export type IdempotencyDecision =
  /** The caller runs the work with this resource id (stored by an earlier unresolved attempt, or the one it proposed). */
  | { kind: 'proceed'; resourceId: string; retryOfUnresolved: boolean }
  /** A completed attempt: answer this status and body, with the header Idempotent-Replayed: true. */
  | { kind: 'replay'; status: number; body: unknown }
  /** 409 idempotency_key_in_progress: another attempt holds the lease. */
  | { kind: 'in_progress' }
  /** 422 idempotency_key_reused: the key was first sent with another request. */
  | { kind: 'mismatch' };

export interface IdempotencyStoreOptions {
  /** How long an attempt holds its key before a retry may take it over (the process is presumed dead). */
  leaseMs?: number;
  /** The clock, for tests. Unset: the database's clock, one clock for every gateway process. */
  now?: () => Date;
}

const DEFAULT_LEASE_MS = 30_000;
/** A lease longer than a day would hold a key hostage long after any client gave up. */
const MAX_LEASE_MS = 24 * 60 * 60 * 1000;
/**
 * Between begin's statements the row can change under us (taken over, completed, purged, aged
 * past retention); each change moves it towards an answer, so a few rounds always settle.
 */
const MAX_BEGIN_ROUNDS = 4;
/** Stored answers are API responses, a few kilobytes; anything near this is a bug. */
const MAX_RESPONSE_BODY_BYTES = 256 * 1024;
/** The purge deletes in short statements so it never holds many row locks at once. */
const PURGE_BATCH_ROWS = 5_000;
const MAX_PURGE_BATCHES = 1_000;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/**
 * jsonb refuses \u0000 and lone surrogates, which JSON.stringify writes as \u escapes (a string's
 * own backslash is written doubled, hence the even run before the escape).
 */
const NOT_STORABLE_IN_JSONB = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f])/;

// Every statement takes the time as $n::timestamptz: the injected clock, or NULL for now().
const WHERE_KEY = `account_id = $1 AND environment = $2 AND method = $3 AND path = $4 AND idempotency_key = $5`;

// The key's age, for begin and the purge alike: older than IDEMPOTENCY_RETENTION_DAYS ($r) at
// time $t counts as gone. Days of 24 hours: a '1 day' step follows the session's daylight saving.
const pastRetention = (t: string, r: string) =>
  `created_at < coalesce(${t}::timestamptz, now()) - ${r}::integer * interval '24 hours'`;

// Which returned row answers which writer of a row statement: the key's five columns, the first
// five parameters of every idempotency row statement.
const ANSWERED_BY_KEY: RowStatement['answers'] = {
  rowKey: (row) =>
    JSON.stringify([
      row['account_id'],
      row['environment'],
      row['method'],
      row['path'],
      row['idempotency_key'],
    ]),
  paramsKey: (params) => JSON.stringify(params.slice(0, 5)),
};

// A row past retention is the key unused: it is replaced in the same statement, as a new claim.
// Of several requests racing for one such row, the first locks and rewrites it; the others wait
// for its commit, then see a fresh created_at, so their WHERE no longer matches. Written for many
// rows (writeRow): concurrent requests' claims commit together, one statement for the group (a
// key is never twice in one group). EXCLUDED.created_at is the claim's own time, coalesce($8, now()).
const CLAIM_ROWS: RowStatement = {
  sql: `INSERT INTO idempotency_keys AS k
    (account_id, environment, method, path, idempotency_key, request_hash, state, resource_id, locked_until, created_at)
  SELECT c.account_id, c.environment, c.method, c.path, c.idempotency_key, c.request_hash, 'in_flight', c.resource_id,
    coalesce(c.at::timestamptz, now()) + c.lease_ms::integer * interval '1 millisecond',
    coalesce(c.at::timestamptz, now())
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
              $9::text[])
    AS c(account_id, environment, method, path, idempotency_key, request_hash, resource_id, at, lease_ms)
  ON CONFLICT (account_id, environment, method, path, idempotency_key) DO UPDATE
  SET request_hash = EXCLUDED.request_hash, state = 'in_flight', resource_id = EXCLUDED.resource_id,
    response_status = NULL, response_body = NULL, locked_until = EXCLUDED.locked_until,
    created_at = EXCLUDED.created_at, completed_at = NULL
  WHERE k.created_at < EXCLUDED.created_at - ${IDEMPOTENCY_RETENTION_DAYS}::integer * interval '24 hours'
  RETURNING k.account_id, k.environment, k.method, k.path, k.idempotency_key, k.resource_id`,
  answers: ANSWERED_BY_KEY,
};

const INSPECT_SQL = `SELECT request_hash, state, resource_id, response_status, response_body::text AS response_body,
    (locked_until IS NULL OR locked_until < coalesce($6::timestamptz, now())) AS lease_ended,
    ${pastRetention('$6', '$7')} AS expired
  FROM idempotency_keys WHERE ${WHERE_KEY}`;

// A conditional update is the take-over: of several retries racing for one expired lease, the
// first moves locked_until into the future and the others' WHERE no longer matches.
const TAKE_OVER_SQL = `UPDATE idempotency_keys
  SET locked_until = coalesce($7::timestamptz, now()) + $8::integer * interval '1 millisecond'
  WHERE ${WHERE_KEY} AND state = 'in_flight' AND request_hash = $6
    AND (locked_until IS NULL OR locked_until < coalesce($7::timestamptz, now()))
  RETURNING resource_id`;

// The first answer stored for a key is the answer for good: a later complete changes nothing.
// Written for many rows (writeRow): a group commit's members store their answers in one call,
// one joined UPDATE planned to find each key by its primary key (migrations 0012 and 0014 say why).
const COMPLETE_ROWS: RowStatement = {
  sql: `SELECT account_id, environment, method, path, idempotency_key
  FROM complete_idempotency_keys($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::text[])`,
  answers: ANSWERED_BY_KEY,
};

// A key nobody claimed yet, inserted with its first answer (claimWithin, storeFirstAnswer). A row
// that exists by then (another request's claim, committed or about to be: the insert waits for
// it) is left as it is and not returned, so that writer hears the key was taken. Written for many
// rows (writeRow): a group commit's members insert their keys in one statement.
const FIRST_ANSWER_ROWS: RowStatement = {
  sql: `INSERT INTO idempotency_keys AS k
    (account_id, environment, method, path, idempotency_key, request_hash, state, resource_id, response_status,
     response_body, created_at, completed_at)
  SELECT a.account_id, a.environment, a.method, a.path, a.idempotency_key, a.request_hash, 'completed', a.resource_id,
    a.status::integer, a.body -> 0, coalesce(a.at::timestamptz, now()), coalesce(a.at::timestamptz, now())
  FROM ROWS FROM (unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), unnest($4::text[]),
                  unnest($5::text[]), unnest($6::text[]), unnest($7::text[]), unnest($8::text[]),
                  jsonb_array_elements($9::jsonb), unnest($10::text[]))
    AS a(account_id, environment, method, path, idempotency_key, request_hash, resource_id, status, body, at)
  ON CONFLICT (account_id, environment, method, path, idempotency_key) DO NOTHING
  RETURNING k.account_id, k.environment, k.method, k.path, k.idempotency_key`,
  answers: ANSWERED_BY_KEY,
  // The answers (JSON texts of a few hundred bytes, quotes throughout) as one JSON array: no escaping.
  jsonColumns: [8],
};

// An unclaimed attempt whose outcome is unknown leaves its key as a released claim would be: in
// flight with its resource id and no lease, so the retry takes it over with that id. If the
// attempt did commit, its row is there (completed) and stays.
const RELEASE_UNCLAIMED_SQL = `INSERT INTO idempotency_keys
    (account_id, environment, method, path, idempotency_key, request_hash, state, resource_id, locked_until, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, 'in_flight', $7, NULL, coalesce($8::timestamptz, now()))
  ON CONFLICT (account_id, environment, method, path, idempotency_key) DO NOTHING`;

const RELEASE_SQL = `UPDATE idempotency_keys SET locked_until = NULL
  WHERE ${WHERE_KEY} AND state = 'in_flight'
  RETURNING resource_id`;

const EXISTS_SQL = `SELECT state FROM idempotency_keys WHERE ${WHERE_KEY}`;

/**
 * Whether a key has a row at all, whatever its state, as a read beside the credential look-up
 * (accounts' ReadBesideCredential): in the credential's own account and environment, for the
 * method, path and key in `t.p1`, `t.p2` and `t.p3`. One row (`used`) or none. Work that stores
 * its answer in its own transaction need not claim a key without a row first: the transaction
 * inserts it with the answer (claimWithin), a commit fewer per request, and a request racing for
 * the key finds out at that insert (IdempotencyKeyTakenError). A key with a row goes through begin.
 */
export const KEY_USE_BESIDE_CREDENTIAL_SQL = `SELECT true AS used FROM idempotency_keys k
  WHERE k.account_id = c.account_id AND k.environment = c.environment AND k.method = t.p1
    AND k.path = t.p2 AND k.idempotency_key = t.p3`;

const PURGE_SQL = `DELETE FROM idempotency_keys
  WHERE (account_id, environment, method, path, idempotency_key) IN (
    SELECT account_id, environment, method, path, idempotency_key FROM idempotency_keys
    WHERE ${pastRetention('$1', '$2')}
    ORDER BY created_at
    LIMIT $3::integer)`;

/**
 * The key was claimed by another request after it was read unused: the unclaimed attempt's
 * transaction rolled back (nothing of it was written), and the request goes through `begin`.
 */
export class IdempotencyKeyTakenError extends OneWriterRefusal {
  constructor() {
    super('the idempotency key was claimed by another request meanwhile');
    this.name = 'IdempotencyKeyTakenError';
  }
}

interface KeyRow {
  request_hash: string;
  state: 'in_flight' | 'completed';
  resource_id: string;
  response_status: number | null;
  /** As text: both drivers parse jsonb, and would turn a stored JSON null and SQL NULL into the same null. */
  response_body: string | null;
  lease_ended: boolean;
  /** Past retention now: it aged after the claim looked (which would have replaced it). */
  expired: boolean;
}

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
   * than IDEMPOTENCY_RETENTION_DAYS ago is no longer kept (ARCHITECTURE 3), purged or not: it is
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

  private nowParam(): string | null {
    return this.now ? this.now().toISOString() : null;
  }

  private async requireExisting(db: SqlQueryable, keyParams: string[], operation: string): Promise<void> {
    const existing = await db.query<{ state: string }>(EXISTS_SQL, keyParams);
    if (existing.rows.length === 0) {
      throw new Error(`${operation}: no idempotency key was begun for this scope and key`);
    }
  }
}

function checkedKeyParams(scope: IdempotencyScope, key: string): string[] {
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new RangeError('idempotency key must be 1 to 255 visible ASCII characters');
  }
  if (scope.environment !== 'production' && scope.environment !== 'sandbox') {
    throw new RangeError(`environment must be production or sandbox, not ${String(scope.environment)}`);
  }
  for (const [name, value] of [
    ['accountId', scope.accountId],
    ['method', scope.method],
    ['path', scope.path],
  ] as const) {
    if (typeof value !== 'string' || value.length === 0)
      throw new RangeError(`${name} must be a non-empty string`);
  }
  return [scope.accountId, scope.environment, scope.method, scope.path, key];
}

function checkedStatus(status: number): number {
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new RangeError(`status must be an HTTP status (100-599), not ${String(status)}`);
  }
  return status;
}

/** JSON text for the jsonb column, or null (SQL NULL) for no body at all. */
function storableBody(body: unknown): string | null {
  if (body === undefined) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(body);
  } catch (error) {
    throw new TypeError('the response body cannot be stored as JSON', { cause: error });
  }
  if (json === undefined) throw new TypeError('the response body cannot be stored as JSON (a function?)');
  if (NOT_STORABLE_IN_JSONB.test(json)) {
    throw new TypeError('the response body holds \\u0000 or a lone surrogate, which jsonb cannot store');
  }
  if (Buffer.byteLength(json, 'utf8') > MAX_RESPONSE_BODY_BYTES) {
    throw new RangeError(`the response body is larger than ${MAX_RESPONSE_BODY_BYTES} bytes`);
  }
  return json;
}

function parseStoredBody(text: string | null): unknown {
  return text === null ? undefined : JSON.parse(text);
}
