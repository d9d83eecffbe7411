import { BatchedLookUps } from '@payouts/database';
import type { RowStatement, SqlClient } from '@payouts/database';
import {
  CredentialKind,
  Environment,
  hasWellFormedBody,
  parseTokenPrefix,
  PayoutScope,
  tokenPrefixFor,
  tokenVerifier,
} from './tokens';

/** What a checkout or payout Bearer token stands for, read fresh on every request. */
export interface AuthenticatedCredential {
  credentialId: string;
  accountId: string;
  environment: Environment;
  kind: CredentialKind;
  scopes: PayoutScope[];
  account: {
    payoutsApproved: boolean;
    /** For the credential's environment. */
    payoutsEnabled: boolean;
    /** For the credential's environment, normalised (see normaliseOrigin). */
    returnUrlOrigins: string[];
  };
}

/**
 * A read that rides in the credential look-up's own statement: a SELECT of at most one row that
 * may use `c.account_id` and `c.environment` (the credential's) and its parameters as the text
 * columns `t.p1`, `t.p2`, … Its row comes back as a JSON object in column order, or null. Only for
 * fixed SQL text, never built from input.
 */
export interface ReadBesideCredential {
  sql: string;
  params: readonly string[];
}

interface CredentialRow {
  credential_id: string;
  account_id: string;
  environment: Environment;
  kind: CredentialKind;
  scopes: PayoutScope[];
  payouts_approved: boolean;
  payouts_enabled: boolean;
  return_url_origins: string[];
  /** The row of a read beside the credential (authenticateCredentialWith), as JSON. */
  beside?: unknown;
}

// One indexed look-up (the unique index on token_verifier) with the account and the settings of
// the credential's environment. Never cached: a revocation or a settings change counts from the
// very next request.
const CREDENTIAL_COLUMNS = `c.credential_id, c.account_id, c.environment, c.kind, c.scopes,
       a.payouts_approved, e.payouts_enabled, e.return_url_origins`;
const CREDENTIAL_JOINS = `JOIN accounts a ON a.account_id = c.account_id
  JOIN account_environments e ON e.account_id = c.account_id AND e.environment = c.environment`;
/**
 * The credential look-up of every request read in one turn, as one statement (see BatchedLookUps),
 * each request's read beside it (ReadBesideCredential) in the same statement, per credential row.
 * A request's parameters come in as the text columns `t.verifier`, `t.p1`, `t.p2`, …
 */
function credentialLookUps(besideSql: string | undefined, besideParams: number): RowStatement {
  const columns = ['verifier', ...Array.from({ length: besideParams }, (_, i) => `p${i + 1}`)];
  const beside =
    besideSql === undefined ? '' : `,\n       (SELECT to_json(b) FROM (${besideSql}) b) AS beside`;
  return {
    sql: `SELECT ${columns.map((column) => `t.${column}`).join(', ')}, ${CREDENTIAL_COLUMNS}${beside}
  FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS t(${columns.join(', ')})
  JOIN credentials c ON c.token_verifier = t.verifier AND c.revoked_at IS NULL
  ${CREDENTIAL_JOINS}`,
    answers:
      besideParams === 0
        ? { rowKey: (row) => String(row['verifier']), paramsKey: (params) => String(params[0]) }
        : {
            rowKey: (row) => JSON.stringify(columns.map((column) => row[column])),
            paramsKey: (params) => JSON.stringify(params),
          },
  };
}

/**
 * Finds what a checkout or payout Bearer token stands for: its credential, the account and the
 * settings of the credential's environment, optionally with a read beside it in the same statement.
 * Requests read in one turn of the event loop share one statement (BatchedLookUps).
 */
export class CredentialLookUp {
  readonly #reads: SqlClient['reads'];
  readonly #credentials: BatchedLookUps<CredentialRow>;
  /**
   * The look-ups with a read beside, by its SQL: each composed once (a freshly concatenated text
   * would be hashed again on every request to find its prepared statement, about 2% of a Get
   * Payout's gateway time). Bounded because the beside SQL is fixed text, never built from input.
   */
  readonly #credentialsWith = new Map<string, BatchedLookUps<CredentialRow>>();

  constructor(db: SqlClient) {
    this.#reads = db.reads;
    this.#credentials = new BatchedLookUps(db.reads, credentialLookUps(undefined, 0));
  }

  /** Null when the token is malformed, unknown or revoked; `beside` is null when its read found no row. */
  async authenticate(
    token: string,
    beside: ReadBesideCredential | undefined,
  ): Promise<{ credential: AuthenticatedCredential; beside: unknown } | null> {
    if (typeof token !== 'string') return null;
    const named = parseTokenPrefix(token);
    if (!named || named.kind === 'admin' || named.environment === null) return null;
    if (!hasWellFormedBody(token, tokenPrefixFor(named.kind, named.environment))) return null;
    const verifier = tokenVerifier(token);
    const [row] = beside
      ? await this.#credentialWith(verifier, beside)
      : await this.#credentials.lookUp([verifier]);
    // The prefix is part of the hashed token, so a stored row always agrees with it; checked anyway.
    if (!row || row.kind !== named.kind || row.environment !== named.environment) return null;
    return { credential: credentialOf(row), beside: row.beside ?? null };
  }

  #credentialWith(verifier: string, beside: ReadBesideCredential): Promise<CredentialRow[]> {
    let lookUps = this.#credentialsWith.get(beside.sql);
    if (lookUps === undefined) {
      lookUps = new BatchedLookUps(this.#reads, credentialLookUps(beside.sql, beside.params.length));
      this.#credentialsWith.set(beside.sql, lookUps);
    }
    return lookUps.lookUp([verifier, ...beside.params]);
  }
}

function credentialOf(row: CredentialRow): AuthenticatedCredential {
  return {
    credentialId: row.credential_id,
    accountId: row.account_id,
    environment: row.environment,
    kind: row.kind,
    scopes: [...row.scopes],
    account: {
      payoutsApproved: row.payouts_approved,
      payoutsEnabled: row.payouts_enabled,
      returnUrlOrigins: [...row.return_url_origins],
    },
  };
}
