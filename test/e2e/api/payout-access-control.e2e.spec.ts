import type { SqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { SQL_CLIENT } from '@payouts/platform';
import { testBackends } from '@payouts/testing';
import { countEvents } from '../../../libs/event-store/src/testing/stored-events';
import {
  Call,
  client,
  Gateway,
  linkBody,
  merchant,
  Merchant,
  newKey,
  OPERATOR_TOKEN,
  startGateway,
} from './gateway-harness';

/** Every payout endpoint, as [method, path (with :id), needs write scope]. */
const ENDPOINTS: [string, string, boolean][] = [
  ['POST', '/api/payout/create', true],
  ['GET', '/api/payout/:id', false],
  ['GET', '/api/payout/list', false],
  ['GET', '/api/payout/balance', false],
  ['POST', '/api/payout/:id/link', true],
  ['POST', '/api/payout/:id/session', true],
  ['POST', '/api/payout/:id/cancel', true],
];

describe.each(testBackends().map((b) => b.name))('who may call the payout endpoints, on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;
  let owner: Merchant;
  let stranger: Merchant;
  let ownersPayout: string;

  beforeAll(async () => {
    gateway = await startGateway(backend);
    call = client(gateway.url);
    owner = await merchant(call);
    stranger = await merchant(call);
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: owner.token,
      key: newKey(),
      body: linkBody('owned'),
    });
    ownersPayout = created.body.payout_id;
  });
  afterAll(() => gateway.close());

  const issue = async (who: Merchant, body: Record<string, unknown>) => {
    const answer = await call('POST', '/dashboard/credentials', { token: who.adminToken, body });
    expect(answer.status).toBe(201);
    return answer.body as { credential_id: string; token: string; secret?: string };
  };

  const hit = (
    method: string,
    path: string,
    token: string | undefined,
    environment: 'sandbox' | 'production' = 'sandbox',
  ) =>
    call(method, `${environment === 'sandbox' ? '/sandbox' : ''}${path.replace(':id', ownersPayout)}`, {
      token,
      key: method === 'POST' ? newKey() : undefined,
      body: method === 'POST' ? (path.endsWith('/session') ? { customer_id: 'cust-1' } : {}) : undefined,
    });

  it.each(ENDPOINTS)('%s %s needs the right scope', async (method, path, needsWrite) => {
    const readOnly = await issue(owner, { kind: 'payout', environment: 'sandbox', scopes: ['payouts:read'] });
    const writeOnly = await issue(owner, {
      kind: 'payout',
      environment: 'sandbox',
      scopes: ['payouts:write'],
    });
    const refusedWith = needsWrite ? readOnly.token : writeOnly.token;
    const allowedWith = needsWrite ? writeOnly.token : readOnly.token;
    const refused = await hit(method, path, refusedWith);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'insufficient_scope']);
    const allowed = await hit(method, path, allowedWith);
    expect(allowed.body?.error?.code).not.toBe('insufficient_scope');
    expect([401, 403]).not.toContain(allowed.status);
  });

  it.each(ENDPOINTS)(
    '%s %s refuses a credential of the other environment and a checkout key',
    async (method, path) => {
      const production = await issue(owner, { kind: 'payout', environment: 'production' });
      const checkout = await issue(owner, { kind: 'checkout', environment: 'sandbox' });
      const sandboxOnProduction = await hit(method, path, owner.token, 'production');
      expect([sandboxOnProduction.status, sandboxOnProduction.body.error.code]).toEqual([
        403,
        'wrong_environment',
      ]);
      const productionOnSandbox = await hit(method, path, production.token, 'sandbox');
      expect([productionOnSandbox.status, productionOnSandbox.body.error.code]).toEqual([
        403,
        'wrong_environment',
      ]);
      const checkoutKey = await hit(method, path, checkout.token, 'sandbox');
      expect([checkoutKey.status, checkoutKey.body.error.code]).toEqual([403, 'wrong_credential_kind']);
    },
  );

  it.each(ENDPOINTS)(
    '%s %s answers 401 without a credential, with an unknown one, and with an admin token',
    async (method, path) => {
      for (const token of [
        undefined,
        'pk_test_unknown0000000000000000000000000000000',
        owner.adminToken,
        OPERATOR_TOKEN,
      ]) {
        const answer = await hit(method, path, token);
        expect([answer.status, answer.body.error.code]).toEqual([401, 'unauthenticated']);
      }
    },
  );

  it.each(ENDPOINTS.filter(([, path]) => path.includes(':id')))(
    '%s %s never shows or changes another account’s payout (404, no data)',
    async (method, path) => {
      const answer = await hit(method, path, stranger.token);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: { code: 'not_found', message: 'no such payout' } });
    },
  );

  it('keeps other accounts’ payouts out of List and Balance', async () => {
    const list = await call('GET', '/sandbox/api/payout/list', { token: stranger.token });
    expect(list.body.data.map((p: { payout_id: string }) => p.payout_id)).not.toContain(ownersPayout);
    const balance = await call('GET', '/sandbox/api/payout/balance', { token: stranger.token });
    expect(balance.body.customer_payout_holds).toBe('0.00');
    const byReference = await call('GET', '/sandbox/api/payout/list?merchant_reference=owned', {
      token: stranger.token,
    });
    expect(byReference.body.total).toBe(0);
  });

  it('stops a revoked credential on its very next request, and only its own account can revoke it', async () => {
    const credential = await issue(owner, { kind: 'payout', environment: 'sandbox' });
    expect((await call('GET', '/sandbox/api/payout/balance', { token: credential.token })).status).toBe(200);
    const foreign = await call('DELETE', `/dashboard/credentials/${credential.credential_id}`, {
      token: stranger.adminToken,
    });
    expect(foreign.status).toBe(404);
    expect((await call('GET', '/sandbox/api/payout/balance', { token: credential.token })).status).toBe(200);
    const revoked = await call('DELETE', `/dashboard/credentials/${credential.credential_id}`, {
      token: owner.adminToken,
    });
    expect(revoked.status).toBe(200);
    const after = await call('GET', '/sandbox/api/payout/balance', { token: credential.token });
    expect([after.status, after.body.error.code]).toEqual([401, 'unauthenticated']);
  });

  it('lists credentials without any secret, and shows a token and checkout secret only when issued', async () => {
    const checkout = await issue(owner, { kind: 'checkout', environment: 'sandbox' });
    expect(checkout.token).toMatch(/^ck_test_/);
    expect(checkout.secret).toMatch(/^cks_[\w-]{43}$/);
    const listed = await call('GET', '/dashboard/credentials', { token: owner.adminToken });
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(checkout.token);
    expect(text).not.toContain(checkout.secret);
    expect(text).not.toContain(owner.token);
  });

  it('checks operator approval and the dashboard switch on every request', async () => {
    const shop = await merchant(call);
    const operator = { token: OPERATOR_TOKEN };
    await call('POST', `/operator/accounts/${shop.accountId}/payouts-approval`, {
      ...operator,
      body: { approved: false },
    });
    const unapproved = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    expect([unapproved.status, unapproved.body.error.code]).toEqual([403, 'payouts_not_approved']);
    await call('POST', `/operator/accounts/${shop.accountId}/payouts-approval`, {
      ...operator,
      body: { approved: true },
    });
    await call('PUT', '/dashboard/payouts-enabled', {
      token: shop.adminToken,
      body: { environment: 'sandbox', enabled: false },
    });
    const disabled = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('off'),
    });
    expect([disabled.status, disabled.body.error.code]).toEqual([403, 'payouts_disabled']);
  });

  it.each([
    ['POST', '/operator/sandbox/clock', 'operator'],
    ['POST', '/operator/accounts', 'operator'],
    ['POST', '/operator/accounts/acct_x/payouts-approval', 'operator'],
    ['POST', '/operator/accounts/acct_x/funds', 'operator'],
    ['PUT', '/operator/accounts/acct_x/limits', 'operator'],
    ['POST', '/operator/float', 'operator'],
    ['POST', '/operator/payouts/po_x/review', 'operator'],
    ['PUT', '/dashboard/payouts-enabled', 'admin'],
    ['POST', '/dashboard/credentials', 'admin'],
    ['PUT', '/dashboard/return-url-origins', 'admin'],
    ['PUT', '/dashboard/payout-webhook', 'admin'],
    ['POST', '/dashboard/payout-webhook/test', 'admin'],
  ])(
    '%s %s authenticates before it reads the body: 401, never a 400 that names a field',
    async (method, path, who) => {
      // The wrong kind of token (each API's token is refused by the other) and a body that is wrong
      // in every field: the caller must learn nothing about what a valid request looks like.
      const wrongToken = who === 'operator' ? owner.adminToken : OPERATOR_TOKEN;
      const garbage = {
        name: 5,
        region: 'usa',
        environment: 'moon',
        amount: 5,
        advance_seconds: 'x',
        decision: 'x',
      };
      for (const token of [undefined, wrongToken]) {
        const answer = await call(method, path, { token, body: garbage });
        expect([answer.status, answer.body.error.code, answer.body.error.param]).toEqual([
          401,
          'unauthenticated',
          undefined,
        ]);
      }
    },
  );

  it('refuses the operator and dashboard APIs to anyone without their token, and validates their bodies', async () => {
    expect(
      (
        await call('POST', '/operator/accounts', {
          token: owner.adminToken,
          body: { name: 'x', region: 'US' },
        })
      ).status,
    ).toBe(401);
    expect((await call('GET', '/dashboard/credentials', { token: OPERATOR_TOKEN })).status).toBe(401);
    const badRegion = await call('POST', '/operator/accounts', {
      token: OPERATOR_TOKEN,
      body: { name: 'x', region: 'usa' },
    });
    expect([badRegion.status, badRegion.body.error.param]).toEqual([400, 'region']);
    const badAmount = await call('POST', `/operator/accounts/${owner.accountId}/funds`, {
      token: OPERATOR_TOKEN,
      body: { environment: 'sandbox', amount: 5 },
    });
    expect([badAmount.status, badAmount.body.error.code]).toEqual([400, 'invalid_amount']);
    const badScope = await call('POST', '/dashboard/credentials', {
      token: owner.adminToken,
      body: { kind: 'payout', environment: 'sandbox', scopes: ['payouts:admin'] },
    });
    expect([badScope.status, badScope.body.error.param]).toEqual([400, 'scopes']);
    const wildcard = await call('PUT', '/dashboard/return-url-origins', {
      token: owner.adminToken,
      body: { environment: 'sandbox', origins: ['https://*.example.com'] },
    });
    expect([wildcard.status, wildcard.body.error.param]).toEqual([400, 'origins']);
  });

  /** What an admin refusal must leave as it was: accounts, credentials, settings and the event log. */
  const adminState = async (): Promise<string> => {
    const db = gateway.app.get<SqlClient>(SQL_CLIENT);
    const events = await countEvents(new PostgresEventStore(db));
    const { rows } = await db.query<{ state: string }>(
      `SELECT json_build_object(
         'accounts', (SELECT count(*) FROM accounts),
         'credentials', (SELECT count(*) FROM credentials),
         'events', $1::bigint,
         'environments', (SELECT json_agg(e ORDER BY e.account_id, e.environment) FROM account_environments e)
       )::text AS state`,
      [events],
    );
    return rows[0]!.state;
  };

  it.each([
    ['a blank account name', 'POST', '/operator/accounts', { name: '   ', region: 'US' }, 'name'],
    [
      'an account name of tabs and line breaks',
      'POST',
      '/operator/accounts',
      { name: '\t\r\n', region: 'US' },
      'name',
    ],
    ['an empty account name', 'POST', '/operator/accounts', { name: '', region: 'US' }, 'name'],
    [
      'a blank reference for credited funds',
      'POST',
      '/operator/accounts/:account/funds',
      { environment: 'sandbox', amount: '5.00', reference: '   ' },
      'reference',
    ],
    [
      'a blank reference for a float top-up',
      'POST',
      '/operator/float',
      { environment: 'sandbox', amount: '5.00', reference: ' ' },
      'reference',
    ],
    [
      'a return URL origin with an underscore in its host',
      'PUT',
      '/dashboard/return-url-origins',
      { environment: 'sandbox', origins: ['https://shop_name.example.com'] },
      'origins',
    ],
    [
      'a return URL origin with a trailing dot',
      'PUT',
      '/dashboard/return-url-origins',
      { environment: 'sandbox', origins: ['https://shop.example.com.'] },
      'origins',
    ],
    [
      'an unusable return URL origin among usable ones',
      'PUT',
      '/dashboard/return-url-origins',
      { environment: 'sandbox', origins: ['https://ok.example.com', 'https://shop_name.example.com:8443'] },
      'origins',
    ],
  ])(
    'refuses %s with 400 invalid_request naming the field, and writes nothing',
    async (_case, method, path, body, param) => {
      const token = path.startsWith('/dashboard') ? owner.adminToken : OPERATOR_TOKEN;
      const before = await adminState();
      const balance = await call('GET', '/sandbox/api/payout/balance', { token: owner.token });
      const answer = await call(method, path.replace(':account', owner.accountId), { token, body });
      expect([answer.status, answer.body.error.code, answer.body.error.param]).toEqual([
        400,
        'invalid_request',
        param,
      ]);
      expect(await adminState()).toBe(before);
      expect((await call('GET', '/sandbox/api/payout/balance', { token: owner.token })).body).toEqual(
        balance.body,
      );
    },
  );

  it('registers an origin only if Create Payout accepts return_urls on it, and then they are used', async () => {
    const shop = await merchant(call, '100.00');
    const saved = await call('PUT', '/dashboard/return-url-origins', {
      token: shop.adminToken,
      body: { environment: 'sandbox', origins: ['https://shop-name.example.com', 'http://localhost:3000'] },
    });
    expect([saved.status, saved.body.origins]).toEqual([
      200,
      ['https://shop-name.example.com', 'http://localhost:3000'],
    ]);
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: {
        amount: '5.00',
        merchant_reference: 'registered-origin',
        delivery: 'redirect',
        customer_id: 'cust-origin',
        return_url: 'https://shop-name.example.com/back',
      },
    });
    expect(created.status).toBe(201);
  });

  it('treats scopes: null as left out, like every optional field: both scopes, or none for a checkout key', async () => {
    const payout = await call('POST', '/dashboard/credentials', {
      token: owner.adminToken,
      body: { kind: 'payout', environment: 'sandbox', scopes: null },
    });
    expect([payout.status, payout.body.scopes]).toEqual([201, ['payouts:read', 'payouts:write']]);
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: payout.body.token,
      key: newKey(),
      body: linkBody('null-scopes'),
    });
    expect(created.status).toBe(201);
    const checkout = await call('POST', '/dashboard/credentials', {
      token: owner.adminToken,
      body: { kind: 'checkout', environment: 'sandbox', scopes: null },
    });
    expect([checkout.status, checkout.body.scopes]).toEqual([201, []]);
  });
});
