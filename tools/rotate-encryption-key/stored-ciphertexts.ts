import type { SecretBox } from '@payouts/accounts';
import { receivingDetailsAssociatedData } from '@payouts/claims';
import type { SealedAnswerUrls } from '@payouts/payouts';

/**
 * One place that keeps SecretBox ciphertexts at rest: how to page through its rows (keyset, by
 * primary key), and how to write one row again under the current key. `rewrite` answers null when
 * the row is already under the current key, and throws when it opens under no key.
 */
export interface CiphertextStore<Row> {
  name: string;
  /** Rows after `after` (null: from the start), in key order, `limit` at most. */
  page: { sql: string; params: (after: Row | null, limit: number) => unknown[] };
  rewrite(row: Row, keys: RotationKeys): Row | null;
  /** Writes the rewritten row only where the stored one is unchanged (a concurrent save wins). */
  update: { sql: string; params: (before: Row, after: Row) => unknown[] };
}

/** A store whatever its row type: `with` hands it to code generic over the row. */
export interface AnyCiphertextStore {
  name: string;
  with<T>(use: <Row>(store: CiphertextStore<Row>) => T): T;
}

const anyStore = <Row>(store: CiphertextStore<Row>): AnyCiphertextStore => ({
  name: store.name,
  with: (use) => use(store),
});

export interface RotationKeys {
  box: SecretBox;
  answers: SealedAnswerUrls;
}

interface IdRow {
  id: string;
  ciphertext: string;
}

/** A text column of ciphertexts whose associated data is derived from the row's id. */
function byId(
  name: string,
  table: string,
  idColumn: string,
  column: string,
  associatedData: (id: string) => string,
): CiphertextStore<IdRow> {
  return {
    name,
    page: {
      sql: `SELECT ${idColumn} AS id, ${column} AS ciphertext FROM ${table}
             WHERE ${column} IS NOT NULL AND ($1::text IS NULL OR ${idColumn} > $1)
             ORDER BY ${idColumn} LIMIT $2`,
      params: (after, limit) => [after?.id ?? null, limit],
    },
    rewrite(row, { box }) {
      const opened = box.open(row.ciphertext, associatedData(row.id));
      if (opened.underCurrentKey) return null;
      return { id: row.id, ciphertext: box.encrypt(opened.plaintext, associatedData(row.id)) };
    },
    update: {
      sql: `UPDATE ${table} SET ${column} = $3 WHERE ${idColumn} = $1 AND ${column} = $2`,
      params: (before, after) => [before.id, before.ciphertext, after.ciphertext],
    },
  };
}

interface AnswerRow {
  account_id: string;
  environment: string;
  method: string;
  path: string;
  idempotency_key: string;
  response_body: unknown;
}

/** Stored idempotent answers that carry a sealed claim link or handoff URL (SealedAnswerUrls). */
const idempotentAnswers: CiphertextStore<AnswerRow> = {
  name: 'idempotency_keys.response_body (sealed_url)',
  page: {
    sql: `SELECT account_id, environment, method, path, idempotency_key, response_body FROM idempotency_keys
           WHERE response_body ? 'sealed_url'
             AND ($1::text IS NULL
                  OR (account_id, environment, method, path, idempotency_key) > ($1, $2, $3, $4, $5))
           ORDER BY account_id, environment, method, path, idempotency_key LIMIT $6`,
    params: (after, limit) => [
      after?.account_id ?? null,
      after?.environment ?? null,
      after?.method ?? null,
      after?.path ?? null,
      after?.idempotency_key ?? null,
      limit,
    ],
  },
  rewrite(row, { answers }) {
    const resealed = answers.resealed(row.response_body);
    return resealed === null ? null : { ...row, response_body: resealed };
  },
  update: {
    sql: `UPDATE idempotency_keys SET response_body = $7::jsonb
           WHERE account_id = $1 AND environment = $2 AND method = $3 AND path = $4 AND idempotency_key = $5
             AND response_body = $6::jsonb`,
    params: (before, after) => [
      before.account_id,
      before.environment,
      before.method,
      before.path,
      before.idempotency_key,
      JSON.stringify(before.response_body),
      JSON.stringify(after.response_body),
    ],
  },
};

/**
 * Every ciphertext written under ENCRYPTION_KEY, with the associated data its writer binds it to:
 * checkout API secrets (AccountsRepository: the credential id), payout webhook secrets
 * (WebhookEndpoints: the endpoint id), recipients' receiving details
 * (PostgresReceivingDetailsVault) and the URLs sealed in stored idempotent answers. Nothing in the
 * event store is encrypted (docs/design.md#invariants, invariant 6).
 */
export const CIPHERTEXT_STORES: readonly AnyCiphertextStore[] = [
  anyStore(
    byId('credentials.secret_ciphertext', 'credentials', 'credential_id', 'secret_ciphertext', (id) => id),
  ),
  anyStore(
    byId(
      'payout_webhook_endpoints.secret_ciphertext',
      'payout_webhook_endpoints',
      'endpoint_id',
      'secret_ciphertext',
      (id) => id,
    ),
  ),
  anyStore(
    byId(
      'payout_webhook_endpoints.previous_secret_ciphertext',
      'payout_webhook_endpoints',
      'endpoint_id',
      'previous_secret_ciphertext',
      (id) => id,
    ),
  ),
  anyStore(
    byId(
      'claim_receiving_details.details_ciphertext',
      'claim_receiving_details',
      'payout_id',
      'details_ciphertext',
      receivingDetailsAssociatedData,
    ),
  ),
  anyStore(idempotentAnswers),
];
