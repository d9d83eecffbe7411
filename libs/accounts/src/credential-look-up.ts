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
    /** The region the operator gave the account: its checkout currencies and card method. */
    region: string;
    /** For the credential's environment: where checkout webhooks go (captured by each new order). */
    checkoutWebhookUrl: string | null;
  };
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
  region: string;
  checkout_webhook_url: string | null;
}

// One indexed look-up (the unique index on token_verifier) with the account and the settings of
// the credential's environment. Never cached: a revocation or a settings change counts from the
// very next request.
const CREDENTIAL_COLUMNS = `c.credential_id, c.account_id, c.environment, c.kind, c.scopes,
       a.payouts_approved, e.payouts_enabled, e.return_url_origins, a.region, e.checkout_webhook_url`;
const CREDENTIAL_JOINS = `JOIN accounts a ON a.account_id = c.account_id
  JOIN account_environments e ON e.account_id = c.account_id AND e.environment = c.environment`;
/** The credential look-up of every request read in one turn, as one statement (see BatchedLookUps). */
const CREDENTIAL_LOOK_UPS: RowStatement = {
  sql: `SELECT t.verifier, ${CREDENTIAL_COLUMNS}
  FROM unnest($1::text[]) AS t(verifier)
  JOIN credentials c ON c.token_verifier = t.verifier AND c.revoked_at IS NULL
  ${CREDENTIAL_JOINS}`,
  answers: { rowKey: (row) => String(row['verifier']), paramsKey: (params) => String(params[0]) },
};

/**
 * Finds what a checkout or payout Bearer token stands for: its credential, the account and the
 * settings of the credential's environment.
 * Requests read in one turn of the event loop share one statement (BatchedLookUps).
 */
export class CredentialLookUp {
  readonly #credentials: BatchedLookUps<CredentialRow>;

  constructor(db: SqlClient) {
    this.#credentials = new BatchedLookUps(db.reads, CREDENTIAL_LOOK_UPS);
  }

  /** Null when the token is malformed, unknown or revoked. */
  async authenticate(token: string): Promise<AuthenticatedCredential | null> {
    if (typeof token !== 'string') return null;
    const named = parseTokenPrefix(token);
    if (!named || named.kind === 'admin' || named.environment === null) return null;
    if (!hasWellFormedBody(token, tokenPrefixFor(named.kind, named.environment))) return null;
    const [row] = await this.#credentials.lookUp([tokenVerifier(token)]);
    // The prefix is part of the hashed token, so a stored row always agrees with it; checked anyway.
    if (!row || row.kind !== named.kind || row.environment !== named.environment) return null;
    return credentialOf(row);
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
      region: row.region,
      checkoutWebhookUrl: row.checkout_webhook_url,
    },
  };
}
