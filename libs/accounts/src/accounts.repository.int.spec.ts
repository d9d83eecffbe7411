import { createHash, randomBytes } from 'node:crypto';
import type { SqlClient } from '@payouts/database';
import { testBackends, TestDatabase } from '@payouts/testing';
import { AccountsRepository, isKnownTimeZone, PayoutScope, TIME_ZONES } from './index';
import { SecretBox } from './secret-box';

/** The test database, counting the look-ups in each statement sent on its shared read connections. */
function countingReads(database: TestDatabase, statements: number[]): SqlClient {
  const reads = database.db.reads;
  return new Proxy(database.db, {
    get: (target, property, receiver) =>
      property === 'reads'
        ? {
            query: reads.query.bind(reads),
            queryPrepared: (sql: string, params?: unknown[]) => {
              statements.push((params?.[0] as unknown[]).length);
              return reads.queryPrepared(sql, params);
            },
          }
        : Reflect.get(target, property, receiver),
  });
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe.each(testBackends())('accounts and credentials on $name', (backend) => {
  let database: TestDatabase;
  let repo: AccountsRepository;
  const key = randomBytes(32);

  beforeAll(async () => {
    database = await backend.open();
    repo = new AccountsRepository(database.db, key);
  });
  afterAll(async () => {
    await database.drop();
  });

  /** Every column of every row of the three tables, as text (row_to_json covers text[] columns too). */
  async function everyStoredValue(): Promise<string> {
    const parts: string[] = [];
    for (const table of ['accounts', 'account_environments', 'credentials']) {
      const result = await database.db.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM ${table} t`,
      );
      parts.push(...result.rows.map((r) => r.row));
    }
    return parts.join('\n');
  }

  describe('an account', () => {
    it('is created with an admin token that authenticates it, and both environments', async () => {
      const { accountId, adminToken } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      expect(accountId).toMatch(/^acct_[0-9a-f]{24}$/);
      expect(adminToken).toMatch(/^adm_[A-Za-z0-9_-]{43}$/);
      expect(await repo.authenticateAdmin(adminToken)).toEqual({ accountId });
      expect(await repo.accountExists(accountId)).toBe(true);

      const environments = await database.db.query<{
        environment: string;
        payouts_enabled: boolean;
        return_url_origins: string[];
        checkout_webhook_url: string | null;
      }>(
        `SELECT environment, payouts_enabled, return_url_origins, checkout_webhook_url
           FROM account_environments WHERE account_id = $1 ORDER BY environment`,
        [accountId],
      );
      expect(environments.rows).toEqual([
        {
          environment: 'production',
          payouts_enabled: false,
          return_url_origins: [],
          checkout_webhook_url: null,
        },
        {
          environment: 'sandbox',
          payouts_enabled: false,
          return_url_origins: [],
          checkout_webhook_url: null,
        },
      ]);
      const account = await database.db.query(
        'SELECT name, region, payouts_approved, admin_token_verifier FROM accounts WHERE account_id = $1',
        [accountId],
      );
      expect(account.rows).toEqual([
        { name: 'Shop', region: 'EU', payouts_approved: false, admin_token_verifier: sha256(adminToken) },
      ]);
    });

    it('is not authenticated by an unknown, altered or other kind of token', async () => {
      const { adminToken } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const other = await repo.createAccount({ name: 'Other', region: 'EU' });
      const payout = await repo.issueCredential(other.accountId, {
        kind: 'payout',
        environment: 'production',
      });
      const lastChar = adminToken.endsWith('A') ? 'B' : 'A';
      for (const token of [
        `adm_${randomBytes(32).toString('base64url')}`,
        adminToken.slice(0, -1) + lastChar,
        adminToken.slice(0, -1),
        `${adminToken}x`,
        adminToken.replace('adm_', 'ADM_'),
        sha256(adminToken),
        payout.token,
        '',
      ]) {
        expect(await repo.authenticateAdmin(token)).toBeNull();
      }
      expect(await repo.authenticateCredential(adminToken)).toBeNull();
    });

    it('is refused with impossible values', async () => {
      await expect(repo.createAccount({ name: '', region: 'EU' })).rejects.toThrow(/name/);
      await expect(repo.createAccount({ name: 'Shop', region: '  ' })).rejects.toThrow(/region/);
      await expect(
        repo.createAccount({ name: 'Shop', region: undefined as unknown as string }),
      ).rejects.toThrow(/region/);
    });

    it('keeps the name the operator gave it, as given; an unknown account has none', async () => {
      const name = `Tom & Jerry's <Shop> ☕`;
      const { accountId } = await repo.createAccount({ name, region: 'US' });
      expect(await repo.accountName(accountId)).toBe(name);
      expect(await repo.accountName('acct_000000000000000000000000')).toBeNull();
    });

    it('gets payouts approved by the operator; an unknown account is false', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      expect(await repo.setPayoutsApproval(accountId, true)).toBe(true);
      expect(await repo.setPayoutsApproval('acct_000000000000000000000000', true)).toBe(false);
      expect(await repo.accountExists('acct_000000000000000000000000')).toBe(false);
      const { token } = await repo.issueCredential(accountId, { kind: 'payout', environment: 'sandbox' });
      expect((await repo.authenticateCredential(token))?.account.payoutsApproved).toBe(true);
      expect(await repo.setPayoutsApproval(accountId, false)).toBe(true);
      expect((await repo.authenticateCredential(token))?.account.payoutsApproved).toBe(false);
    });

    it('gives its settings per environment, with the payout switches a credential of that environment reads', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      expect(await repo.environmentSettings(accountId, 'sandbox')).toEqual({
        payoutsApproved: false,
        payoutsEnabled: false,
        returnUrlOrigins: [],
        checkoutWebhookUrl: null,
        region: 'EU',
      });
      await repo.setReturnUrlOrigins(accountId, 'sandbox', ['https://shop.example']);
      await repo.setCheckoutWebhookUrl(accountId, 'sandbox', 'https://shop.example/hooks');
      await repo.setPayoutsApproval(accountId, true);
      await repo.setPayoutsEnabled(accountId, 'sandbox', true);
      expect(await repo.environmentSettings(accountId, 'sandbox')).toEqual({
        payoutsApproved: true,
        payoutsEnabled: true,
        returnUrlOrigins: ['https://shop.example'],
        checkoutWebhookUrl: 'https://shop.example/hooks',
        region: 'EU',
      });
      expect(await repo.environmentSettings(accountId, 'production')).toMatchObject({
        payoutsApproved: true,
        payoutsEnabled: false,
        returnUrlOrigins: [],
      });
      expect(await repo.environmentSettings('acct_000000000000000000000000', 'sandbox')).toBeNull();
      await expect(repo.environmentSettings(accountId, 'staging' as 'sandbox')).rejects.toThrow();
    });
  });

  describe('a credential', () => {
    it('authenticates as its account, environment, kind and scopes, with the settings of its environment', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      await repo.setPayoutsApproval(accountId, true);
      await repo.setPayoutsEnabled(accountId, 'sandbox', true);
      await repo.setReturnUrlOrigins(accountId, 'sandbox', [
        'HTTPS://Shop.Example:443/back',
        'http://localhost:3000',
      ]);
      await repo.setReturnUrlOrigins(accountId, 'production', ['https://live.shop.example']);
      await repo.setCheckoutWebhookUrl(accountId, 'production', 'https://live.shop.example/hooks/checkout');

      const sandbox = await repo.issueCredential(accountId, { kind: 'payout', environment: 'sandbox' });
      expect(sandbox).toEqual({
        credentialId: expect.stringMatching(/^cred_[0-9a-f]{24}$/),
        token: expect.stringMatching(/^pk_test_[A-Za-z0-9_-]{43}$/),
        kind: 'payout',
        environment: 'sandbox',
        scopes: ['payouts:read', 'payouts:write'],
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(await repo.authenticateCredential(sandbox.token)).toEqual({
        credentialId: sandbox.credentialId,
        accountId,
        environment: 'sandbox',
        kind: 'payout',
        scopes: ['payouts:read', 'payouts:write'],
        account: {
          payoutsApproved: true,
          payoutsEnabled: true,
          returnUrlOrigins: ['https://shop.example', 'http://localhost:3000'],
          region: 'EU',
          checkoutWebhookUrl: null,
        },
      });

      const production = await repo.issueCredential(accountId, {
        kind: 'payout',
        environment: 'production',
        scopes: ['payouts:read'],
      });
      expect(production.token).toMatch(/^pk_live_/);
      expect(await repo.authenticateCredential(production.token)).toEqual({
        credentialId: production.credentialId,
        accountId,
        environment: 'production',
        kind: 'payout',
        scopes: ['payouts:read'],
        account: {
          payoutsApproved: true,
          payoutsEnabled: false,
          returnUrlOrigins: ['https://live.shop.example'],
          region: 'EU',
          checkoutWebhookUrl: 'https://live.shop.example/hooks/checkout',
        },
      });

      const checkout = await repo.issueCredential(accountId, { kind: 'checkout', environment: 'production' });
      expect(checkout.token).toMatch(/^ck_live_[A-Za-z0-9_-]{43}$/);
      expect(checkout.secret).toMatch(/^cks_[A-Za-z0-9_-]{43}$/);
      expect(checkout.scopes).toEqual([]);
      expect(await repo.authenticateCredential(checkout.token)).toMatchObject({
        credentialId: checkout.credentialId,
        accountId,
        environment: 'production',
        kind: 'checkout',
        scopes: [],
      });
      // The API secret is not a Bearer token.
      expect(await repo.authenticateCredential(checkout.secret!)).toBeNull();
    });

    it('reads settings fresh on every request', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const { token } = await repo.issueCredential(accountId, { kind: 'payout', environment: 'production' });
      expect((await repo.authenticateCredential(token))?.account.payoutsEnabled).toBe(false);
      await repo.setPayoutsEnabled(accountId, 'production', true);
      expect((await repo.authenticateCredential(token))?.account.payoutsEnabled).toBe(true);
      await repo.setPayoutsEnabled(accountId, 'sandbox', false);
      expect((await repo.authenticateCredential(token))?.account.payoutsEnabled).toBe(true);
      await repo.setPayoutsEnabled(accountId, 'production', false);
      expect((await repo.authenticateCredential(token))?.account.payoutsEnabled).toBe(false);
    });

    it('keeps scopes in canonical order without duplicates', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const issued = await repo.issueCredential(accountId, {
        kind: 'payout',
        environment: 'sandbox',
        scopes: ['payouts:write', 'payouts:read', 'payouts:write'],
      });
      expect(issued.scopes).toEqual(['payouts:read', 'payouts:write']);
      expect((await repo.authenticateCredential(issued.token))?.scopes).toEqual([
        'payouts:read',
        'payouts:write',
      ]);
    });

    it('is not authenticated when unknown, altered, or with a prefix that does not match its kind or environment', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const { token } = await repo.issueCredential(accountId, { kind: 'payout', environment: 'production' });
      const body = token.slice('pk_live_'.length);
      for (const candidate of [
        `pk_live_${randomBytes(32).toString('base64url')}`,
        `pk_test_${body}`,
        `ck_live_${body}`,
        `adm_${body}`,
        body,
        token.slice(0, -1),
        `${token} `,
        token.toUpperCase(),
        sha256(token),
        '',
      ]) {
        expect(await repo.authenticateCredential(candidate)).toBeNull();
      }
      expect(await repo.authenticateCredential(token)).not.toBeNull();
    });

    it('is refused with impossible values', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      await expect(
        repo.issueCredential(accountId, {
          kind: 'payout',
          environment: 'sandbox',
          scopes: ['payouts:admin' as PayoutScope],
        }),
      ).rejects.toThrow(/unknown scope/);
      await expect(
        repo.issueCredential(accountId, { kind: 'payout', environment: 'sandbox', scopes: [] }),
      ).rejects.toThrow(/at least one scope/);
      await expect(
        repo.issueCredential(accountId, {
          kind: 'checkout',
          environment: 'sandbox',
          scopes: ['payouts:read'],
        }),
      ).rejects.toThrow(/no scopes/);
      await expect(
        repo.issueCredential(accountId, { kind: 'admin' as 'payout', environment: 'sandbox' }),
      ).rejects.toThrow(/unknown credential kind/);
      await expect(
        repo.issueCredential(accountId, { kind: 'payout', environment: 'test' as 'sandbox' }),
      ).rejects.toThrow(/unknown environment/);
      await expect(
        repo.issueCredential('acct_000000000000000000000000', { kind: 'payout', environment: 'sandbox' }),
      ).rejects.toThrow(/no such account/);
      expect(await repo.listCredentials(accountId)).toEqual([]);
    });
  });

  describe('secrets at rest', () => {
    it('stores only verifiers and ciphertext: no row holds a token or secret in clear', async () => {
      const { accountId, adminToken } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const issued = [
        await repo.issueCredential(accountId, { kind: 'payout', environment: 'production' }),
        await repo.issueCredential(accountId, { kind: 'payout', environment: 'sandbox' }),
        await repo.issueCredential(accountId, { kind: 'checkout', environment: 'production' }),
        await repo.issueCredential(accountId, { kind: 'checkout', environment: 'sandbox' }),
      ];
      const clear = [adminToken, ...issued.flatMap((c) => [c.token, ...(c.secret ? [c.secret] : [])])];
      expect(clear).toHaveLength(7);

      const stored = await everyStoredValue();
      for (const value of clear) {
        expect(stored).not.toContain(value);
        // Nor the random body (the 43 characters after the prefix), in any encoding we use.
        const body = value.slice(-43);
        expect(stored).not.toContain(body);
        expect(stored).not.toContain(Buffer.from(body, 'base64url').toString('hex'));
        expect(stored).not.toContain(Buffer.from(body, 'base64url').toString('base64'));
      }

      const rows = await database.db.query<{
        credential_id: string;
        token_verifier: string;
        token_hint: string;
        secret_ciphertext: string | null;
      }>(
        'SELECT credential_id, token_verifier, token_hint, secret_ciphertext FROM credentials WHERE account_id = $1',
        [accountId],
      );
      for (const credential of issued) {
        const row = rows.rows.find((r) => r.credential_id === credential.credentialId)!;
        expect(row.token_verifier).toBe(sha256(credential.token));
        expect(row.token_hint).toBe(credential.token.slice(-4));
        if (credential.kind === 'checkout') {
          expect(row.secret_ciphertext).toEqual(expect.any(String));
          expect(row.secret_ciphertext).not.toBe(credential.secret);
        } else {
          expect(row.secret_ciphertext).toBeNull();
        }
      }
    });

    it('gives the checkout secret back decrypted; ciphertexts differ from the secret and from run to run', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const checkout = await repo.issueCredential(accountId, { kind: 'checkout', environment: 'sandbox' });
      expect(await repo.checkoutSecret(checkout.credentialId)).toBe(checkout.secret);

      const readCiphertext = async () =>
        (
          await database.db.query<{ secret_ciphertext: string }>(
            'SELECT secret_ciphertext FROM credentials WHERE credential_id = $1',
            [checkout.credentialId],
          )
        ).rows[0]!.secret_ciphertext;
      const first = await readCiphertext();
      expect(first).not.toContain(checkout.secret!);

      // The same secret encrypted again (a fresh IV) gives another ciphertext that still decrypts.
      const again = new SecretBox(key).encrypt(checkout.secret!, checkout.credentialId);
      expect(again).not.toBe(first);
      await database.db.query('UPDATE credentials SET secret_ciphertext = $2 WHERE credential_id = $1', [
        checkout.credentialId,
        again,
      ]);
      expect(await repo.checkoutSecret(checkout.credentialId)).toBe(checkout.secret);

      // Another key cannot read it; a ciphertext copied onto another credential does not decrypt.
      await expect(
        new AccountsRepository(database.db, randomBytes(32)).checkoutSecret(checkout.credentialId),
      ).rejects.toThrow(/does not decrypt/);
      const other = await repo.issueCredential(accountId, { kind: 'checkout', environment: 'sandbox' });
      await database.db.query('UPDATE credentials SET secret_ciphertext = $2 WHERE credential_id = $1', [
        other.credentialId,
        again,
      ]);
      await expect(repo.checkoutSecret(other.credentialId)).rejects.toThrow(/does not decrypt/);
    });

    it('has no secret for a payout credential or an unknown one', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const payout = await repo.issueCredential(accountId, { kind: 'payout', environment: 'sandbox' });
      expect(await repo.checkoutSecret(payout.credentialId)).toBeNull();
      expect(await repo.checkoutSecret('cred_000000000000000000000000')).toBeNull();
    });

    it('refuses a key that is not 32 bytes', () => {
      expect(() => new AccountsRepository(database.db, randomBytes(16))).toThrow(/32 bytes/);
    });
  });

  describe('listing credentials', () => {
    it('shows each credential of the account with its hint, never a token, verifier or secret', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const other = await repo.createAccount({ name: 'Other', region: 'EU' });
      await repo.issueCredential(other.accountId, { kind: 'payout', environment: 'sandbox' });
      const payout = await repo.issueCredential(accountId, { kind: 'payout', environment: 'production' });
      const checkout = await repo.issueCredential(accountId, { kind: 'checkout', environment: 'sandbox' });
      await repo.revokeCredential(accountId, payout.credentialId);

      const list = await repo.listCredentials(accountId);
      expect(list).toHaveLength(2);
      const byId = new Map(list.map((c) => [c.credentialId, c]));
      expect(byId.get(payout.credentialId)).toEqual({
        credentialId: payout.credentialId,
        kind: 'payout',
        environment: 'production',
        scopes: ['payouts:read', 'payouts:write'],
        tokenHint: payout.token.slice(-4),
        createdAt: payout.createdAt,
        revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      });
      expect(byId.get(checkout.credentialId)).toEqual({
        credentialId: checkout.credentialId,
        kind: 'checkout',
        environment: 'sandbox',
        scopes: [],
        tokenHint: checkout.token.slice(-4),
        createdAt: checkout.createdAt,
        revokedAt: null,
      });

      const serialised = JSON.stringify(list);
      for (const value of [
        payout.token,
        checkout.token,
        checkout.secret!,
        sha256(payout.token),
        sha256(checkout.token),
      ]) {
        expect(serialised).not.toContain(value);
      }
      expect(await repo.listCredentials('acct_000000000000000000000000')).toEqual([]);
    });
  });

  describe('concurrent credential look-ups', () => {
    it('answers each concurrent request its own credential, in one statement, and nothing for a revoked or unknown token', async () => {
      const a = await repo.createAccount({ name: 'A', region: 'EU' });
      const b = await repo.createAccount({ name: 'B', region: 'EU' });
      const ofA = await repo.issueCredential(a.accountId, { kind: 'payout', environment: 'sandbox' });
      const ofB = await repo.issueCredential(b.accountId, { kind: 'payout', environment: 'sandbox' });
      const revoked = await repo.issueCredential(a.accountId, { kind: 'payout', environment: 'sandbox' });
      await repo.revokeCredential(a.accountId, revoked.credentialId);
      const unknown = `pk_test_${randomBytes(32).toString('base64url')}`;
      const statements: number[] = [];
      const counted = new AccountsRepository(countingReads(database, statements), key);
      const found = await Promise.all(
        [ofA.token, ofB.token, ofA.token, revoked.token, unknown].map((token) =>
          counted.authenticateCredential(token),
        ),
      );
      expect(found.map((f) => f?.accountId ?? null)).toEqual([
        a.accountId,
        b.accountId,
        a.accountId,
        null,
        null,
      ]);
      // One statement for the turn, the same token looked up once.
      expect(statements).toEqual([4]);
    });
  });

  describe('revocation', () => {
    it('takes effect on the very next call', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const kept = await repo.issueCredential(accountId, { kind: 'payout', environment: 'production' });
      const revoked = await repo.issueCredential(accountId, { kind: 'payout', environment: 'production' });
      expect(await repo.authenticateCredential(revoked.token)).not.toBeNull();
      expect(await repo.revokeCredential(accountId, revoked.credentialId)).toBe(true);
      expect(await repo.authenticateCredential(revoked.token)).toBeNull();
      expect(await repo.authenticateCredential(kept.token)).not.toBeNull();
    });

    it('is idempotent and keeps the first revocation time', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const credential = await repo.issueCredential(accountId, {
        kind: 'checkout',
        environment: 'production',
      });
      expect(await repo.revokeCredential(accountId, credential.credentialId)).toBe(true);
      const [first] = await repo.listCredentials(accountId);
      expect(await repo.revokeCredential(accountId, credential.credentialId)).toBe(true);
      const [second] = await repo.listCredentials(accountId);
      expect(second!.revokedAt).toBe(first!.revokedAt);
      expect(await repo.authenticateCredential(credential.token)).toBeNull();
      expect(await repo.revokeCredential(accountId, 'cred_000000000000000000000000')).toBe(false);
    });
  });

  describe('isolation between accounts', () => {
    it("never authenticates one account's credential as another's, nor lets another account revoke it", async () => {
      const a = await repo.createAccount({ name: 'A', region: 'EU' });
      const b = await repo.createAccount({ name: 'B', region: 'US' });
      await repo.setPayoutsApproval(b.accountId, true);
      await repo.setPayoutsEnabled(b.accountId, 'production', true);
      await repo.setReturnUrlOrigins(b.accountId, 'production', ['https://b.example']);
      const credentialOfA = await repo.issueCredential(a.accountId, {
        kind: 'payout',
        environment: 'production',
      });
      const credentialOfB = await repo.issueCredential(b.accountId, {
        kind: 'payout',
        environment: 'production',
      });

      const authenticated = await repo.authenticateCredential(credentialOfA.token);
      expect(authenticated).toMatchObject({
        accountId: a.accountId,
        account: { payoutsApproved: false, payoutsEnabled: false, returnUrlOrigins: [] },
      });
      expect(await repo.authenticateAdmin(a.adminToken)).toEqual({ accountId: a.accountId });
      expect(await repo.authenticateAdmin(b.adminToken)).toEqual({ accountId: b.accountId });

      expect(await repo.revokeCredential(b.accountId, credentialOfA.credentialId)).toBe(false);
      expect(await repo.authenticateCredential(credentialOfA.token)).toMatchObject({
        accountId: a.accountId,
      });
      expect((await repo.listCredentials(a.accountId)).map((c) => c.revokedAt)).toEqual([null]);
      expect((await repo.listCredentials(b.accountId)).map((c) => c.credentialId)).toEqual([
        credentialOfB.credentialId,
      ]);
    });
  });

  describe('environment settings', () => {
    it('stores return URL origins normalised, once each, and refuses anything that is not an origin', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      await repo.setReturnUrlOrigins(accountId, 'production', [
        'https://Shop.example/',
        'https://shop.example:443',
        'http://shop.example:8080/x',
      ]);
      const read = async () =>
        (
          await database.db.query<{ return_url_origins: string[] }>(
            `SELECT return_url_origins FROM account_environments WHERE account_id = $1 AND environment = 'production'`,
            [accountId],
          )
        ).rows[0]!.return_url_origins;
      expect(await read()).toEqual(['https://shop.example', 'http://shop.example:8080']);
      await expect(
        repo.setReturnUrlOrigins(accountId, 'production', ['https://ok.example', 'javascript:alert(1)']),
      ).rejects.toThrow(/origin/);
      expect(await read()).toEqual(['https://shop.example', 'http://shop.example:8080']);
      await repo.setReturnUrlOrigins(accountId, 'production', []);
      expect(await read()).toEqual([]);
      await expect(
        repo.setReturnUrlOrigins('acct_000000000000000000000000', 'production', ['https://x.example']),
      ).rejects.toThrow(/no such account/);
    });

    it('stores the checkout webhook URL per environment', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      await repo.setCheckoutWebhookUrl(accountId, 'sandbox', 'https://shop.example/hooks/checkout');
      const rows = await database.db.query<{ environment: string; checkout_webhook_url: string | null }>(
        'SELECT environment, checkout_webhook_url FROM account_environments WHERE account_id = $1 ORDER BY environment',
        [accountId],
      );
      expect(rows.rows).toEqual([
        { environment: 'production', checkout_webhook_url: null },
        { environment: 'sandbox', checkout_webhook_url: 'https://shop.example/hooks/checkout' },
      ]);
      await expect(repo.setCheckoutWebhookUrl(accountId, 'sandbox', 'ftp://shop.example/x')).rejects.toThrow(
        /http\(s\) URL/,
      );
      await expect(
        repo.setCheckoutWebhookUrl('acct_000000000000000000000000', 'sandbox', 'https://shop.example/x'),
      ).rejects.toThrow(/no such account/);
    });

    it('refuses unknown environments and non-boolean switches', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      await expect(repo.setPayoutsEnabled(accountId, 'live' as 'production', true)).rejects.toThrow(
        /unknown environment/,
      );
      await expect(
        repo.setPayoutsEnabled(accountId, 'production', 'yes' as unknown as boolean),
      ).rejects.toThrow(/true or false/);
      await expect(repo.setPayoutsApproval(accountId, 1 as unknown as boolean)).rejects.toThrow(
        /true or false/,
      );
      await expect(
        repo.setPayoutsEnabled('acct_000000000000000000000000', 'production', true),
      ).rejects.toThrow(/no such account/);
    });
  });

  describe('the dashboard profile', () => {
    it('is the account’s name and its time zone, UTC until one is set; null for no such account', async () => {
      const { accountId } = await repo.createAccount({ name: 'Corner <Shop>', region: 'US' });
      expect(await repo.dashboardProfile(accountId)).toEqual({ name: 'Corner <Shop>', timeZone: 'UTC' });
      expect(await repo.dashboardProfile('acct_000000000000000000000000')).toBeNull();
      expect(await repo.dashboardProfile(42 as unknown as string)).toBeNull();
    });

    it('sets a time zone from TIME_ZONES for that account alone, and refuses any other name unchanged', async () => {
      const { accountId } = await repo.createAccount({ name: 'Shop', region: 'EU' });
      const { accountId: otherId } = await repo.createAccount({ name: 'Other', region: 'EU' });
      expect(TIME_ZONES).toContain('Europe/Berlin');
      expect(await repo.setTimeZone(accountId, 'Europe/Berlin')).toBe(true);
      expect((await repo.dashboardProfile(accountId))?.timeZone).toBe('Europe/Berlin');
      expect((await repo.dashboardProfile(otherId))?.timeZone).toBe('UTC');
      expect(await repo.setTimeZone(accountId, 'UTC')).toBe(true);
      expect((await repo.dashboardProfile(accountId))?.timeZone).toBe('UTC');
      await repo.setTimeZone(accountId, 'Asia/Tokyo');

      for (const refused of ['Mars/Olympus_Mons', 'europe/berlin', '', 'UTC ', 42 as unknown as string]) {
        expect(isKnownTimeZone(refused)).toBe(false);
        await expect(repo.setTimeZone(accountId, refused)).rejects.toThrow(RangeError);
      }
      expect((await repo.dashboardProfile(accountId))?.timeZone).toBe('Asia/Tokyo');
      expect(await repo.setTimeZone('acct_000000000000000000000000', 'Asia/Tokyo')).toBe(false);
    });

    it('offers only zones the runtime can format, UTC first and once', async () => {
      expect(TIME_ZONES[0]).toBe('UTC');
      expect(TIME_ZONES.filter((zone) => zone === 'UTC')).toHaveLength(1);
      expect(new Set(TIME_ZONES).size).toBe(TIME_ZONES.length);
      for (const zone of TIME_ZONES) {
        expect(() => new Intl.DateTimeFormat('en-GB', { timeZone: zone })).not.toThrow();
      }
    });
  });

  describe('the schema', () => {
    it('refuses clear tokens where a verifier belongs', async () => {
      await expect(
        database.db.query(
          `INSERT INTO accounts (account_id, name, region, admin_token_verifier) VALUES ('acct_x', 'x', 'EU', $1)`,
          [`adm_${randomBytes(32).toString('base64url')}`],
        ),
      ).rejects.toThrow();
    });
  });
});
