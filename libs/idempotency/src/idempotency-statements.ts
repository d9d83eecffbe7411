import type { RowStatement } from '@payouts/database';
import { IDEMPOTENCY_RETENTION_DAYS } from './idempotency-key';

export const DEFAULT_LEASE_MS = 30_000;
/** A lease longer than a day would hold a key hostage long after any client gave up. */
export const MAX_LEASE_MS = 24 * 60 * 60 * 1000;
/**
 * Between begin's statements the row can change under us (taken over, completed, purged, aged
 * past retention); each change moves it towards an answer, so a few rounds always settle.
 */
export const MAX_BEGIN_ROUNDS = 4;
/** Stored answers are API responses, a few kilobytes; anything near this is a bug. */
export const MAX_RESPONSE_BODY_BYTES = 256 * 1024;
/** The purge deletes in short statements so it never holds many row locks at once. */
export const PURGE_BATCH_ROWS = 5_000;
export const MAX_PURGE_BATCHES = 1_000;
export const SHA256_HEX = /^[0-9a-f]{64}$/;
/**
 * jsonb refuses \u0000 and lone surrogates, which JSON.stringify writes as \u escapes (a string's
 * own backslash is written doubled, hence the even run before the escape).
 */
export const NOT_STORABLE_IN_JSONB = /(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f])/;

// Every statement takes the time as $n::timestamptz: the injected clock, or NULL for now().
export const WHERE_KEY = `account_id = $1 AND environment = $2 AND method = $3 AND path = $4 AND idempotency_key = $5`;

// The key's age, for begin and the purge alike: older than IDEMPOTENCY_RETENTION_DAYS ($r) at
// time $t counts as gone. Days of 24 hours: a '1 day' step follows the session's daylight saving.
export const pastRetention = (t: string, r: string) =>
  `created_at < coalesce(${t}::timestamptz, now()) - ${r}::integer * interval '24 hours'`;

// Which returned row answers which writer of a row statement: the key's five columns, the first
// five parameters of every idempotency row statement.
export const ANSWERED_BY_KEY: RowStatement['answers'] = {
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
export const CLAIM_ROWS: RowStatement = {
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

export const INSPECT_SQL = `SELECT request_hash, state, resource_id, response_status, response_body::text AS response_body,
    (locked_until IS NULL OR locked_until < coalesce($6::timestamptz, now())) AS lease_ended,
    ${pastRetention('$6', '$7')} AS expired
  FROM idempotency_keys WHERE ${WHERE_KEY}`;

// A conditional update is the take-over: of several retries racing for one expired lease, the
// first moves locked_until into the future and the others' WHERE no longer matches.
export const TAKE_OVER_SQL = `UPDATE idempotency_keys
  SET locked_until = coalesce($7::timestamptz, now()) + $8::integer * interval '1 millisecond'
  WHERE ${WHERE_KEY} AND state = 'in_flight' AND request_hash = $6
    AND (locked_until IS NULL OR locked_until < coalesce($7::timestamptz, now()))
  RETURNING resource_id`;

// The first answer stored for a key is the answer for good: a later complete changes nothing.
// Written for many rows (writeRow): a group commit's members store their answers in one call,
// one joined UPDATE planned to find each key by its primary key (migrations 0012 and 0014 say why).
export const COMPLETE_ROWS: RowStatement = {
  sql: `SELECT account_id, environment, method, path, idempotency_key
  FROM complete_idempotency_keys($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::text[])`,
  answers: ANSWERED_BY_KEY,
};

// A key nobody claimed yet, inserted with its first answer (claimWithin, storeFirstAnswer). A row
// that exists by then (another request's claim, committed or about to be: the insert waits for
// it) is left as it is and not returned, so that writer hears the key was taken. Written for many
// rows (writeRow): a group commit's members insert their keys in one statement.
export const FIRST_ANSWER_ROWS: RowStatement = {
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
export const RELEASE_UNCLAIMED_SQL = `INSERT INTO idempotency_keys
    (account_id, environment, method, path, idempotency_key, request_hash, state, resource_id, locked_until, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, 'in_flight', $7, NULL, coalesce($8::timestamptz, now()))
  ON CONFLICT (account_id, environment, method, path, idempotency_key) DO NOTHING`;

export const RELEASE_SQL = `UPDATE idempotency_keys SET locked_until = NULL
  WHERE ${WHERE_KEY} AND state = 'in_flight'
  RETURNING resource_id`;

export const EXISTS_SQL = `SELECT state FROM idempotency_keys WHERE ${WHERE_KEY}`;

export const PURGE_SQL = `DELETE FROM idempotency_keys
  WHERE (account_id, environment, method, path, idempotency_key) IN (
    SELECT account_id, environment, method, path, idempotency_key FROM idempotency_keys
    WHERE ${pastRetention('$1', '$2')}
    ORDER BY created_at
    LIMIT $3::integer)`;
