import type { SqlClient } from '@payouts/database';
import { ENVIRONMENTS, Environment } from '@payouts/domain';
import { AuthenticatedCredential, CredentialLookUp } from './credential-look-up';
import { requireBoolean, requireEnvironment, requireText, scopesFor } from './account-input';
import { normaliseOrigin } from './origins';
import { isKnownTimeZone } from './time-zones';
import type { KeyMaterial } from './encryption-keys';
import { SecretBox } from './secret-box';
import {
  CREDENTIAL_KINDS,
  CredentialKind,
  hasWellFormedBody,
  newAccountId,
  newAdminToken,
  newCheckoutSecret,
  newCredentialId,
  newCredentialToken,
  PayoutScope,
  tokenPrefixFor,
  tokenVerifier,
} from './tokens';

export interface IssuedCredential {
  credentialId: string;
  /** Shown once: only its verifier is stored. */
  token: string;
  /** The checkout API secret, shown once (stored encrypted); checkout credentials only. */
  secret?: string;
  kind: CredentialKind;
  environment: Environment;
  scopes: PayoutScope[];
  createdAt: string;
}

/** One environment's settings (and the account's approval and region), as stored. */
export interface EnvironmentSettings {
  /** By the service operator, for the whole account. */
  payoutsApproved: boolean;
  payoutsEnabled: boolean;
  returnUrlOrigins: string[];
  checkoutWebhookUrl: string | null;
  /** The region the operator gave the account: its ledgers' currencies. */
  region: string;
}

export interface CredentialSummary {
  credentialId: string;
  kind: CredentialKind;
  environment: Environment;
  scopes: PayoutScope[];
  /** The last 4 characters of the token. */
  tokenHint: string;
  createdAt: string;
  revokedAt: string | null;
}

const AUTHENTICATE_ADMIN_SQL = 'SELECT account_id FROM accounts WHERE admin_token_verifier = $1';

/**
 * Accounts, their per-environment settings and their credentials. Tokens and the checkout API
 * secret are returned once, when created; the database keeps only SHA-256 verifiers of tokens and
 * the AES-256-GCM ciphertext of secrets (invariant 6). Input validation with messages for people
 * belongs to the HTTP layer; here, impossible values are refused with plain Errors.
 */
export class AccountsRepository {
  readonly #db: SqlClient;
  readonly #box: SecretBox;
  readonly #credentials: CredentialLookUp;

  constructor(db: SqlClient, secretKey: KeyMaterial) {
    this.#db = db;
    this.#box = new SecretBox(secretKey);
    this.#credentials = new CredentialLookUp(db);
  }

  async createAccount(input: {
    name: string;
    region: string;
  }): Promise<{ accountId: string; adminToken: string }> {
    requireText(input?.name, 'name');
    requireText(input?.region, 'region');
    const accountId = newAccountId();
    const adminToken = newAdminToken();
    await this.#db.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO accounts (account_id, name, region, admin_token_verifier) VALUES ($1, $2, $3, $4)',
        [accountId, input.name, input.region, tokenVerifier(adminToken)],
      );
      await tx.query(
        'INSERT INTO account_environments (account_id, environment) SELECT $1, unnest($2::text[])',
        [accountId, ENVIRONMENTS],
      );
    });
    return { accountId, adminToken };
  }

  async authenticateAdmin(token: string): Promise<{ accountId: string } | null> {
    if (typeof token !== 'string' || !hasWellFormedBody(token, tokenPrefixFor('admin', null))) return null;
    const result = await this.#db.reads.queryPrepared<{ account_id: string }>(AUTHENTICATE_ADMIN_SQL, [
      tokenVerifier(token),
    ]);
    const row = result.rows[0];
    return row ? { accountId: row.account_id } : null;
  }

  /**
   * One indexed query joining credential, account and environment settings; null when unknown or
   * revoked. A plain SELECT on the shared read connections: every request runs it, so the
   * requests read in one turn of the event loop share one statement.
   */
  async authenticateCredential(token: string): Promise<AuthenticatedCredential | null> {
    return this.#credentials.authenticate(token);
  }

  async accountExists(accountId: string): Promise<boolean> {
    if (typeof accountId !== 'string') return false;
    const result = await this.#db.query('SELECT 1 FROM accounts WHERE account_id = $1', [accountId]);
    return result.rows.length > 0;
  }

  /**
   * The name the operator gave the account: the recipient's pages show who is paying. Null when
   * there is no such account.
   */
  async accountName(accountId: string): Promise<string | null> {
    if (typeof accountId !== 'string') return null;
    const result = await this.#db.query<{ name: string }>('SELECT name FROM accounts WHERE account_id = $1', [
      accountId,
    ]);
    return result.rows[0]?.name ?? null;
  }

  /**
   * What the dashboard shows of the account on every page: its name and the time zone its times
   * are shown in. Null when there is no such account.
   */
  async dashboardProfile(accountId: string): Promise<{ name: string; timeZone: string } | null> {
    if (typeof accountId !== 'string') return null;
    const result = await this.#db.query<{ name: string; time_zone: string }>(
      'SELECT name, time_zone FROM accounts WHERE account_id = $1',
      [accountId],
    );
    const row = result.rows[0];
    return row ? { name: row.name, timeZone: row.time_zone } : null;
  }

  /**
   * One environment's settings as stored, with the account's approval and region: the
   * dashboard's Settings page shows them and its Send payouts pages check the same two switches a
   * payout credential's look-up reads. Null when there is no such account.
   */
  async environmentSettings(
    accountId: string,
    environment: Environment,
  ): Promise<EnvironmentSettings | null> {
    requireEnvironment(environment);
    const result = await this.#db.query<{
      payouts_approved: boolean;
      region: string;
      payouts_enabled: boolean;
      return_url_origins: string[];
      checkout_webhook_url: string | null;
    }>(
      `SELECT a.payouts_approved, a.region, e.payouts_enabled, e.return_url_origins, e.checkout_webhook_url
         FROM accounts a JOIN account_environments e ON e.account_id = a.account_id AND e.environment = $2
        WHERE a.account_id = $1`,
      [accountId, environment],
    );
    const row = result.rows[0];
    if (!row) return null;
    return {
      payoutsApproved: row.payouts_approved,
      payoutsEnabled: row.payouts_enabled,
      returnUrlOrigins: [...row.return_url_origins],
      checkoutWebhookUrl: row.checkout_webhook_url,
      region: row.region,
    };
  }

  /** An IANA time zone name the runtime knows (a RangeError otherwise). False when no such account. */
  async setTimeZone(accountId: string, timeZone: string): Promise<boolean> {
    if (!isKnownTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${JSON.stringify(timeZone)}`);
    const result = await this.#db.query(
      'UPDATE accounts SET time_zone = $2 WHERE account_id = $1 RETURNING account_id',
      [accountId, timeZone],
    );
    return result.rows.length > 0;
  }

  /** By the service operator. False when there is no such account. */
  async setPayoutsApproval(accountId: string, approved: boolean): Promise<boolean> {
    requireBoolean(approved, 'approved');
    const result = await this.#db.query(
      'UPDATE accounts SET payouts_approved = $2 WHERE account_id = $1 RETURNING account_id',
      [accountId, approved],
    );
    return result.rows.length > 0;
  }

  async setPayoutsEnabled(accountId: string, environment: Environment, enabled: boolean): Promise<void> {
    requireEnvironment(environment);
    requireBoolean(enabled, 'enabled');
    await this.#updateEnvironment(accountId, environment, 'payouts_enabled = $3', [enabled]);
  }

  /** Replaces the registered origins; each is stored normalised, duplicates once, in the given order. */
  async setReturnUrlOrigins(accountId: string, environment: Environment, origins: string[]): Promise<void> {
    requireEnvironment(environment);
    if (!Array.isArray(origins)) throw new Error('origins must be an array');
    const normalised: string[] = [];
    for (const origin of origins) {
      const value = normaliseOrigin(origin);
      if (value === null) throw new Error('every return URL origin must be an http(s) origin with a host');
      if (!normalised.includes(value)) normalised.push(value);
    }
    await this.#updateEnvironment(accountId, environment, 'return_url_origins = $3::text[]', [normalised]);
  }

  async setCheckoutWebhookUrl(accountId: string, environment: Environment, url: string): Promise<void> {
    requireEnvironment(environment);
    if (typeof url !== 'string' || normaliseOrigin(url) === null) {
      throw new Error('the checkout webhook URL must be an http(s) URL with a host');
    }
    await this.#updateEnvironment(accountId, environment, 'checkout_webhook_url = $3', [url]);
  }

  async issueCredential(
    accountId: string,
    input: { kind: CredentialKind; environment: Environment; scopes?: PayoutScope[] },
  ): Promise<IssuedCredential> {
    const kind = input?.kind;
    if (!CREDENTIAL_KINDS.includes(kind)) throw new Error(`unknown credential kind: ${String(kind)}`);
    const environment = input.environment;
    requireEnvironment(environment);
    const scopes = scopesFor(kind, input.scopes);

    const credentialId = newCredentialId();
    const token = newCredentialToken(kind, environment);
    const secret = kind === 'checkout' ? newCheckoutSecret() : undefined;
    const secretCiphertext = secret === undefined ? null : this.#box.encrypt(secret, credentialId);

    // Inserted only if the account exists, so an unknown account is a clear Error rather than a
    // foreign-key violation.
    const result = await this.#db.query<{ created_at: Date }>(
      `INSERT INTO credentials
         (credential_id, account_id, environment, kind, scopes, token_verifier, token_hint, secret_ciphertext)
       SELECT $1, account_id, $3, $4, $5::text[], $6, $7, $8 FROM accounts WHERE account_id = $2
       RETURNING created_at`,
      [
        credentialId,
        accountId,
        environment,
        kind,
        scopes,
        tokenVerifier(token),
        token.slice(-4),
        secretCiphertext,
      ],
    );
    const row = result.rows[0];
    if (!row) throw new Error('no such account');
    return {
      credentialId,
      token,
      ...(secret === undefined ? {} : { secret }),
      kind,
      environment,
      scopes,
      createdAt: isoString(row.created_at),
    };
  }

  /** Every credential of the account, revoked ones included, oldest first; never a token, verifier or secret. */
  async listCredentials(accountId: string): Promise<CredentialSummary[]> {
    const result = await this.#db.query<{
      credential_id: string;
      kind: CredentialKind;
      environment: Environment;
      scopes: PayoutScope[];
      token_hint: string;
      created_at: Date;
      revoked_at: Date | null;
    }>(
      `SELECT credential_id, kind, environment, scopes, token_hint, created_at, revoked_at
         FROM credentials WHERE account_id = $1 ORDER BY created_at, credential_id`,
      [accountId],
    );
    return result.rows.map((row) => ({
      credentialId: row.credential_id,
      kind: row.kind,
      environment: row.environment,
      scopes: [...row.scopes],
      tokenHint: row.token_hint,
      createdAt: isoString(row.created_at),
      revokedAt: row.revoked_at === null ? null : isoString(row.revoked_at),
    }));
  }

  /**
   * Revokes a credential of this account (effective on the next request: nothing is cached).
   * Revoking again is true and keeps the first revocation time; false when the credential is not
   * this account's.
   */
  async revokeCredential(accountId: string, credentialId: string): Promise<boolean> {
    const result = await this.#db.query(
      `UPDATE credentials SET revoked_at = COALESCE(revoked_at, now())
        WHERE account_id = $1 AND credential_id = $2 RETURNING credential_id`,
      [accountId, credentialId],
    );
    return result.rows.length > 0;
  }

  /**
   * The API secret of a checkout credential, decrypted; null for an unknown credential or one
   * that has no secret (a payout credential). Revocation does not erase it: webhooks of orders
   * created with the credential may still need signing. Throws if the stored ciphertext does not
   * decrypt with this repository's key.
   */
  async checkoutSecret(credentialId: string): Promise<string | null> {
    const result = await this.#db.query<{ secret_ciphertext: string | null }>(
      'SELECT secret_ciphertext FROM credentials WHERE credential_id = $1',
      [credentialId],
    );
    const stored = result.rows[0]?.secret_ciphertext;
    if (stored === undefined || stored === null) return null;
    return this.#box.decrypt(stored, credentialId);
  }

  async #updateEnvironment(
    accountId: string,
    environment: Environment,
    assignment: string,
    values: unknown[],
  ): Promise<void> {
    const result = await this.#db.query(
      `UPDATE account_environments SET ${assignment}
        WHERE account_id = $1 AND environment = $2 RETURNING account_id`,
      [accountId, environment, ...values],
    );
    if (result.rows.length === 0) throw new Error('no such account');
  }
}

function isoString(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
