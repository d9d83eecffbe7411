import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqlClient } from '@payouts/database';
import type { IdempotencyStore } from '@payouts/idempotency';
import { SQL_CLIENT } from '@payouts/platform';
import { readPayoutView } from '@payouts/read-models';
import { createServerDatabase, testBackends } from '@payouts/testing';
import {
  Call,
  client,
  Gateway,
  linkBody,
  merchant,
  Merchant,
  newKey,
  PAYOUT_CORE_FIELDS,
  startGateway,
} from './gateway-harness';
import { IDEMPOTENCY_STORE as IDEMPOTENCY } from '@payouts/idempotency';

describe.each(testBackends().map((b) => b.name))('the payout endpoints over HTTP on %s', (backend) => {
  let gateway: Gateway;
  let call: Call;
  let shop: Merchant;

  beforeAll(async () => {
    gateway = await startGateway(backend);
    call = client(gateway.url);
    shop = await merchant(call, '1000.00', { origins: ['https://shop.example.com'] });
  });
  afterAll(() => gateway.close());

  const create = (body: unknown, key = newKey(), token = shop.token) =>
    call('POST', '/sandbox/api/payout/create', { token, key, body });

  it('creates a payout, shows it in Get, List and Balance at once, and cancels it with the money back', async () => {
    const created = await create(linkBody('flow-1', '25.00'));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      payout_id: expect.stringMatching(/^po_/),
      status: 'awaiting_choice',
      status_version: 1,
      amount: '25.00',
      fee: '0.50',
      total_reserved: '25.50',
      currency: 'USD',
      funds_released: false,
      payout_url: expect.stringMatching(
        /^http:\/\/localhost:\d+\/sandbox\/claim\/po_[0-9a-f]{24}\.[\w-]{43}$/,
      ),
      access_link_expires_at: created.body.payout_expires_at,
      payout_expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const id = created.body.payout_id;

    const got = await call('GET', `/sandbox/api/payout/${id}`, { token: shop.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      payout_id: id,
      merchant_reference: 'flow-1',
      customer_id: null,
      delivery: 'link',
      source: 'api',
    });
    expect(Object.keys(got.body).sort()).toEqual(
      [
        ...PAYOUT_CORE_FIELDS,
        'merchant_reference',
        'customer_id',
        'delivery',
        'source',
        'case_reference',
        'selected_method',
        'safe_reason',
        'receipt_reference',
        'created_at',
        'accepted_at',
        'payout_expires_at',
        'updated_at',
      ].sort(),
    );

    const listed = await call('GET', '/sandbox/api/payout/list?merchant_reference=flow-1', {
      token: shop.token,
    });
    expect(listed.body).toMatchObject({ total: 1, limit: 50, offset: 0, data: [{ payout_id: id }] });

    const balance = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    expect(balance.body).toMatchObject({
      available_for_new_commitments: '974.50',
      customer_payout_holds: '25.50',
    });

    const cancelled = await call('POST', `/sandbox/api/payout/${id}/cancel`, {
      token: shop.token,
      key: newKey(),
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', status_version: 2, funds_released: true });
    const after = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    expect(after.body).toMatchObject({
      available_for_new_commitments: '1000.00',
      customer_payout_holds: '0.00',
    });
  });

  it('answers the balance with every documented field (and the funds flow’s pending and next_settlement_at) and limits from the account configuration', async () => {
    const balance = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    expect(balance.status).toBe(200);
    expect(Object.keys(balance.body).sort()).toEqual(
      [
        'currency',
        'limits',
        'matured',
        'available_for_new_commitments',
        'merchant_settlement_holds',
        'customer_payout_holds',
        'customer_payouts_settled',
        'retained_target',
        'estimated_next_settlement',
        // docs/design.md#funds-flow: proceeds not cleared yet, and when the next automatic settlement runs.
        'pending',
        'next_settlement_at',
      ].sort(),
    );
    expect(balance.body.limits).toEqual({
      fee_per_payout: '0.50',
      min_payout: '1.00',
      max_payout: '5000.00',
      max_open_exposure: '50000.00',
      max_pending_per_customer: 5,
    });
  });

  it('replays a create with the same key: same payout, payout_url null, Idempotent-Replayed: true', async () => {
    const key = newKey();
    const first = await create(linkBody('idem-1'), key);
    const again = await create(linkBody('idem-1'), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ ...first.body, payout_url: null });
    expect(
      (await call('GET', '/sandbox/api/payout/list?merchant_reference=idem-1', { token: shop.token })).body
        .total,
    ).toBe(1);
  });

  it('keeps a rejected create rejected for its key, refuses the key with another body, and requires a key', async () => {
    const key = newKey();
    const refused = await create(linkBody('idem-2', '0.50'), key);
    expect(refused.body.error.code).toBe('amount_out_of_range');
    const replay = await create(linkBody('idem-2', '0.50'), key);
    expect(replay.status).toBe(422);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(refused.body);
    expect((await create(linkBody('idem-2', '5.00'), key)).body.error.code).toBe('idempotency_key_reused');
    const noKey = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      body: linkBody('idem-3'),
    });
    expect([noKey.status, noKey.body.error.code]).toEqual([400, 'idempotency_key_required']);
  });

  it('creates one payout when 50 requests with one key arrive together', async () => {
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 50 }, () => create(linkBody('idem-race'), key)));
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.payout_id));
    expect(ids.size).toBe(1);
    for (const a of answers.filter((a) => a.status !== 201)) {
      expect([a.status, a.body.error.code]).toEqual([409, 'idempotency_key_in_progress']);
    }
    expect(
      (await call('GET', '/sandbox/api/payout/list?merchant_reference=idem-race', { token: shop.token })).body
        .total,
    ).toBe(1);
  });

  it.each([
    ['a JSON number amount', { ...linkBody('v1'), amount: 10 }, 400, 'invalid_amount', 'amount'],
    ['three decimals', { ...linkBody('v2'), amount: '1.001' }, 400, 'invalid_amount', 'amount'],
    ['a negative amount', { ...linkBody('v3'), amount: '-1.00' }, 400, 'invalid_amount', 'amount'],
    ['an exponent', { ...linkBody('v4'), amount: '1e3' }, 400, 'invalid_amount', 'amount'],
    [
      'a destination',
      { ...linkBody('v5'), destination: 'acct' },
      400,
      'destination_not_accepted',
      'destination',
    ],
    [
      'a destination_address',
      { ...linkBody('v6'), destination_address: 'x' },
      400,
      'destination_not_accepted',
      'destination_address',
    ],
    ['another currency', { ...linkBody('v7'), currency: 'EUR' }, 400, 'unsupported_currency', 'currency'],
    [
      'no merchant_reference',
      { amount: '1.00', delivery: 'link', customer_email: 'a@example.com' },
      400,
      'invalid_request',
      'merchant_reference',
    ],
    [
      'a 192-character merchant_reference',
      linkBody('r'.repeat(192)),
      400,
      'invalid_request',
      'merchant_reference',
    ],
    ['an unknown delivery', { ...linkBody('v8'), delivery: 'post' }, 400, 'invalid_request', 'delivery'],
    [
      'link without customer_email',
      { amount: '1.00', merchant_reference: 'v9', delivery: 'link' },
      400,
      'invalid_request',
      'customer_email',
    ],
    [
      'a malformed customer_email',
      { ...linkBody('v10'), customer_email: 'not-an-email' },
      400,
      'invalid_request',
      'customer_email',
    ],
    [
      'a quoted customer_email hiding a header (CR LF)',
      { ...linkBody('v10a'), customer_email: '"a\r\nBcc: x@evil.com"@example.com' },
      400,
      'invalid_request',
      'customer_email',
    ],
    [
      'a quoted customer_email with a space',
      { ...linkBody('v10b'), customer_email: '"a b"@example.com' },
      400,
      'invalid_request',
      'customer_email',
    ],
    [
      'two addresses in customer_email',
      { ...linkBody('v10c'), customer_email: 'a@example.com, b@example.com' },
      400,
      'invalid_request',
      'customer_email',
    ],
    [
      'a display name in customer_email',
      { ...linkBody('v10d'), customer_email: 'Ana <ana@example.com>' },
      400,
      'invalid_request',
      'customer_email',
    ],
    [
      'a 256-character customer_email',
      { ...linkBody('v11'), customer_email: `${'a'.repeat(244)}@example.com` },
      400,
      'invalid_request',
      'customer_email',
    ],
    [
      'redirect without customer_id',
      {
        amount: '1.00',
        merchant_reference: 'v12',
        delivery: 'redirect',
        return_url: 'https://shop.example.com/',
      },
      400,
      'invalid_request',
      'customer_id',
    ],
    [
      'redirect without return_url',
      { amount: '1.00', merchant_reference: 'v13', delivery: 'redirect', customer_id: 'c' },
      400,
      'invalid_request',
      'return_url',
    ],
    [
      'an unregistered return_url origin',
      {
        amount: '1.00',
        merchant_reference: 'v14',
        delivery: 'redirect',
        customer_id: 'c',
        return_url: 'https://shop.example.com:8443/back',
      },
      400,
      'return_url_not_registered',
      'return_url',
    ],
    [
      'a 256-character description',
      { ...linkBody('v15'), description: 'd'.repeat(256) },
      400,
      'invalid_request',
      'description',
    ],
    [
      'a 192-character case_reference',
      { ...linkBody('v16'), case_reference: 'c'.repeat(192) },
      400,
      'invalid_request',
      'case_reference',
    ],
    [
      'a 65-character original_payment_id',
      { ...linkBody('v17'), original_payment_id: 'o'.repeat(65) },
      400,
      'invalid_request',
      'original_payment_id',
    ],
    ['an unknown field', { ...linkBody('v18'), colour: 'red' }, 400, 'invalid_request', 'colour'],
    ['an amount above max_payout', linkBody('v19', '5000.01'), 422, 'amount_out_of_range', 'amount'],
    ['an amount below min_payout', linkBody('v20', '0.99'), 422, 'amount_out_of_range', 'amount'],
  ])('refuses %s with the documented error and writes nothing', async (_case, body, status, code, param) => {
    const before = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    const answer = await create(body);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toMatchObject({ code, param });
    expect(answer.headers.get('request-id')).toMatch(/^req_/);
    expect((await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body).toEqual(
      before.body,
    );
  });

  it('refuses a customer_email the mailer could not send to, with its message, and creates no payout', async () => {
    for (const [i, email] of ['"a\r\nBcc: x@evil.com"@example.com', '"a b"@example.com'].entries()) {
      const reference = `undeliverable-${i}`;
      const before = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
      const answer = await create({ ...linkBody(reference), customer_email: email });
      expect([answer.status, answer.body.error]).toEqual([
        400,
        {
          code: 'invalid_request',
          message: 'customer_email is not a valid e-mail address',
          param: 'customer_email',
        },
      ]);
      const listed = await call('GET', `/sandbox/api/payout/list?merchant_reference=${reference}`, {
        token: shop.token,
      });
      expect(listed.body.total).toBe(0);
      expect((await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body).toEqual(
        before.body,
      );
    }
  });

  it('accepts ordinary addresses: plus-addressing, subdomains, digits, hyphens and an international domain', async () => {
    const other = await merchant(call, '100.00');
    for (const [i, email] of [
      'ana+refunds@example.com',
      'ana.maria@mail.eu.example.com',
      'shop-42@123-mail.example.com',
      'ana@bücher.example',
    ].entries()) {
      const answer = await create(
        { ...linkBody(`deliverable-${i}`, '1.00'), customer_email: email },
        newKey(),
        other.token,
      );
      expect(answer.status).toBe(201);
    }
  });

  it('refuses a duplicate merchant_reference with 409 and insufficient funds with 409', async () => {
    await create(linkBody('dup-1'));
    expect((await create(linkBody('dup-1'))).body.error.code).toBe('duplicate_merchant_reference');
    const poor = await merchant(call, '5.00');
    const answer = await create(linkBody('poor-1', '10.00'), newKey(), poor.token);
    expect([answer.status, answer.body.error.code]).toEqual([409, 'insufficient_funds']);
  });

  it('answers 415 for a non-JSON body, 413 above 64 KiB and 400 for malformed JSON, in the error body', async () => {
    const text = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      rawBody: 'x',
      contentType: 'text/plain',
    });
    expect([text.status, text.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const big = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: { ...linkBody('big'), description: 'x'.repeat(70 * 1024) },
    });
    expect([big.status, big.body.error.code]).toEqual([413, 'payload_too_large']);
    const broken = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      rawBody: '{"amount":',
    });
    expect([broken.status, broken.body.error.code]).toEqual([400, 'invalid_request']);
  });

  it('lists newest first with total across pages and caps limit at 200', async () => {
    const lister = await merchant(call, '1000.00');
    for (let i = 0; i < 5; i += 1) await create(linkBody(`page-${i}`, '1.00'), newKey(), lister.token);
    const page = await call('GET', '/sandbox/api/payout/list?limit=2&offset=1', { token: lister.token });
    expect(page.body.total).toBe(5);
    expect(page.body.data.map((p: { merchant_reference: string }) => p.merchant_reference)).toEqual([
      'page-3',
      'page-2',
    ]);
    expect(
      (await call('GET', '/sandbox/api/payout/list?limit=500', { token: lister.token })).body.limit,
    ).toBe(200);
    const bad = await call('GET', '/sandbox/api/payout/list?status=lost', { token: lister.token });
    expect([bad.status, bad.body.error.param]).toEqual([400, 'status']);
  });

  it('shows the current claim link again, rotates it, and runs redirect sessions as documented', async () => {
    const link = await create(linkBody('access-1'));
    const id = link.body.payout_id;
    const getLink = () =>
      call('POST', `/sandbox/api/payout/${id}/link`, { token: shop.token, key: newKey(), body: {} });
    // Get (no rotate) shows the link Create returned, with the same deadline: no new link, no fee.
    const shown = await getLink();
    expect([shown.status, shown.body]).toEqual([
      200,
      {
        payout_id: id,
        url: link.body.payout_url,
        rotated: false,
        access_link_expires_at: link.body.access_link_expires_at,
      },
    ]);
    const rotateKey = newKey();
    const rotated = await call('POST', `/sandbox/api/payout/${id}/link`, {
      token: shop.token,
      key: rotateKey,
      body: { rotate: true },
    });
    expect(rotated.body).toMatchObject({
      payout_id: id,
      rotated: true,
      url: expect.stringMatching(/\/sandbox\/claim\//),
    });
    expect(rotated.body.url).not.toBe(link.body.payout_url);
    // From now on Get shows the new link, never the invalidated one.
    expect((await getLink()).body.url).toBe(rotated.body.url);
    // A replay answers the same link (a retry whose answer was lost needs it), though the stored
    // answer holds it only encrypted.
    const replay = await call('POST', `/sandbox/api/payout/${id}/link`, {
      token: shop.token,
      key: rotateKey,
      body: { rotate: true },
    });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(replay.body).toEqual(rotated.body);
    const stored = await gateway.app
      .get<SqlClient>(SQL_CLIENT)
      .query<{ body: string }>(
        'SELECT response_body::text AS body FROM idempotency_keys WHERE idempotency_key = $1',
        [rotateKey],
      );
    expect(stored.rows).toHaveLength(1);
    const token = new URL(rotated.body.url as string).pathname.split('/').pop()!;
    expect(stored.rows[0]!.body).not.toContain(token);
    // Shown again from the link id its event keeps (ClaimLinkTokens): the link's secret is in no
    // text or JSON value of the database.
    const db = gateway.app.get<SqlClient>(SQL_CLIENT);
    await expect(tablesHolding(db, token.split('.')[1]!)).resolves.toEqual([]);
    const wrong = await call('POST', `/sandbox/api/payout/${id}/session`, {
      token: shop.token,
      key: newKey(),
      body: { customer_id: 'c' },
    });
    expect([wrong.status, wrong.body.error.code]).toEqual([409, 'wrong_delivery']);

    const redirect = await create({
      amount: '3.00',
      merchant_reference: 'access-2',
      delivery: 'redirect',
      customer_id: 'cust-7',
      return_url: 'https://shop.example.com/done',
    });
    expect(redirect.status).toBe(201);
    const rid = redirect.body.payout_id;
    const mismatch = await call('POST', `/sandbox/api/payout/${rid}/session`, {
      token: shop.token,
      key: newKey(),
      body: { customer_id: 'other' },
    });
    expect([mismatch.status, mismatch.body.error.code]).toEqual([403, 'customer_mismatch']);
    const sessionKey = newKey();
    const session = await call('POST', `/sandbox/api/payout/${rid}/session`, {
      token: shop.token,
      key: sessionKey,
      body: { customer_id: 'cust-7' },
    });
    expect(session.body).toMatchObject({
      payout_id: rid,
      payout_url: expect.stringMatching(/\/sandbox\/handoff\//),
    });
    const sessionReplay = await call('POST', `/sandbox/api/payout/${rid}/session`, {
      token: shop.token,
      key: sessionKey,
      body: { customer_id: 'cust-7' },
    });
    expect([sessionReplay.status, sessionReplay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(sessionReplay.body).toEqual(session.body);
    const handoffToken = new URL(session.body.payout_url as string).pathname.split('/').pop()!;
    const storedSession = await db.query<{ body: string }>(
      'SELECT response_body::text AS body FROM idempotency_keys WHERE idempotency_key = $1',
      [sessionKey],
    );
    expect(storedSession.rows[0]!.body).not.toContain(handoffToken);
    expect(Date.parse(session.body.access_link_expires_at)).toBeLessThanOrEqual(
      Date.parse(redirect.body.payout_expires_at),
    );
    const linkOnRedirect = await call('POST', `/sandbox/api/payout/${rid}/link`, {
      token: shop.token,
      key: newKey(),
      body: { rotate: true },
    });
    expect([linkOnRedirect.status, linkOnRedirect.body.error.code]).toEqual([409, 'wrong_delivery']);
    await call('POST', `/sandbox/api/payout/${rid}/cancel`, { token: shop.token, key: newKey() });
    const closed = await call('POST', `/sandbox/api/payout/${rid}/session`, {
      token: shop.token,
      key: newKey(),
      body: { customer_id: 'cust-7' },
    });
    expect([closed.status, closed.body.error.code]).toEqual([409, 'not_resumable']);
    const again = await call('POST', `/sandbox/api/payout/${rid}/cancel`, {
      token: shop.token,
      key: newKey(),
    });
    expect(again.body).toMatchObject({ status: 'cancelled', status_version: 2 });
  });

  it('answers link_unavailable for a link another ENCRYPTION_KEY issued, which still works, until it is rotated', async () => {
    // The same database under a gateway with another key: the key the link was derived with is gone.
    const dataDir = mkdtempSync(join(tmpdir(), 'claim-links-'));
    const server = backend === 'postgres' ? await createServerDatabase() : undefined;
    const env: Record<string, string> = server ? { DATABASE_URL: server.url } : { DATA_DIR: dataDir };
    let rekeyed: Gateway | undefined;
    try {
      const before = await startGateway(backend, env);
      const beforeCall = client(before.url);
      const seller = await merchant(beforeCall, '100.00');
      const created = await beforeCall('POST', '/sandbox/api/payout/create', {
        token: seller.token,
        key: newKey(),
        body: linkBody('rekeyed-1', '5.00'),
      });
      expect(created.status).toBe(201);
      const id = created.body.payout_id as string;
      await before.close();

      rekeyed = await startGateway(backend, env);
      const after = client(rekeyed.url);
      const getLink = () =>
        after('POST', `/sandbox/api/payout/${id}/link`, { token: seller.token, key: newKey(), body: {} });
      const unavailable = await getLink();
      expect([unavailable.status, unavailable.body.error]).toEqual([
        409,
        {
          code: 'link_unavailable',
          message: 'the existing claim link cannot be shown again; send rotate: true',
        },
      ]);
      // The recipient's link is checked against the hash in the payout's stream: it still opens
      // (303 to the recipient's page, with a session cookie).
      const oldLink = new URL(created.body.payout_url as string);
      const opened = await fetch(`${rekeyed.url}${oldLink.pathname}`, { redirect: 'manual' });
      expect([opened.status, opened.headers.get('location')]).toEqual([303, '/sandbox/recipient']);
      const rotated = await after('POST', `/sandbox/api/payout/${id}/link`, {
        token: seller.token,
        key: newKey(),
        body: { rotate: true },
      });
      expect([rotated.status, rotated.body.rotated]).toEqual([200, true]);
      const shown = await getLink();
      expect([shown.status, shown.body.url]).toEqual([200, rotated.body.url]);
    } finally {
      await rekeyed?.close();
      await server?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers Get, read by id beside the credential look-up, with exactly the view readPayoutView reads, field order included, and 404 to another account', async () => {
    const created = await create({
      ...linkBody('beside-1', '3.00'),
      description: 'd',
      case_reference: 'c-1',
    });
    const id = created.body.payout_id as string;
    const got = await call('GET', `/sandbox/api/payout/${id}`, { token: shop.token });
    const db = gateway.app.get<SqlClient>(SQL_CLIENT);
    const view = await readPayoutView(db, shop.accountId, 'sandbox', id);
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).toBe(JSON.stringify(view));
    // The other environment's and another account's credentials see no such payout.
    const stranger = await merchant(call, '1.00');
    const foreign = await call('GET', `/sandbox/api/payout/${id}`, { token: stranger.token });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'not_found']);
  });

  it("answers concurrent Gets, which share the gateway's statements, each its own", async () => {
    const ids = await Promise.all(
      ['many-1', 'many-2', 'many-3'].map(
        async (reference) => (await create(linkBody(reference, '1.00'))).body.payout_id as string,
      ),
    );
    const stranger = await merchant(call, '1.00');
    const asks: [string, string][] = [
      ...ids.map((id): [string, string] => [id, shop.token]),
      [`${ids[0]}0`, shop.token],
      ['po_bad', shop.token],
      [`po_${'é'.repeat(24)}`, shop.token],
      [ids[1]!, stranger.token],
    ];
    // Several rounds at once, so that Gets share the gateway's turns (and their statements).
    const answers = await Promise.all(
      [1, 2, 3].flatMap(() =>
        asks.map(([id, token]) => call('GET', `/sandbox/api/payout/${encodeURIComponent(id)}`, { token })),
      ),
    );
    expect(answers.map((answer) => [answer.status, answer.body.payout_id ?? answer.body.error.code])).toEqual(
      [1, 2, 3].flatMap(() => [
        ...ids.map((id) => [200, id]),
        [404, 'not_found'],
        [404, 'not_found'],
        [404, 'not_found'],
        [404, 'not_found'],
      ]),
    );
  });

  it("tries a create's new Idempotency-Key with its commit: concurrent creates each get their own key's answer", async () => {
    const used = newKey();
    const first = await create(linkBody('key-beside-1', '1.00'), used);
    expect(first.status).toBe(201);
    const stranger = await merchant(call, '10.00');
    const store = gateway.app.get<IdempotencyStore>(IDEMPOTENCY);
    const begin = jest.spyOn(store, 'begin');
    try {
      const [fresh, replay, strangers, sameAgain] = await Promise.all([
        create(linkBody('key-beside-2', '1.00')),
        create(linkBody('key-beside-1', '1.00'), used),
        // The key is this account's, not the stranger's: for the stranger it is new.
        create(linkBody('key-beside-1', '1.00'), used, stranger.token),
        create(linkBody('key-beside-1', '1.00'), used),
      ]);
      expect([fresh.status, fresh.headers.get('idempotent-replayed')]).toEqual([201, null]);
      for (const again of [replay, sameAgain]) {
        expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
        expect(again.body).toEqual({ ...first.body, payout_url: null });
      }
      expect([strangers.status, strangers.headers.get('idempotent-replayed')]).toEqual([201, null]);
      expect(strangers.body.payout_id).not.toBe(first.body.payout_id);
      // Only the used key was claimed (begin, which replays); a new key went straight to its
      // create's commit, which inserted it with the answer.
      expect(begin.mock.calls.map(([scope, key]) => [scope.accountId, key])).toEqual([
        [shop.accountId, used],
        [shop.accountId, used],
      ]);
    } finally {
      begin.mockRestore();
    }
  });

  it('keeps a create refused by the body rules refused for its key; a missing key is reported before the body', async () => {
    const key = newKey();
    const bad = { ...linkBody('kept-bad'), amount: 12 };
    const refused = await create(bad, key);
    expect([refused.status, refused.body.error.code, refused.body.error.param]).toEqual([
      400,
      'invalid_amount',
      'amount',
    ]);
    const again = await create(bad, key);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([400, 'true']);
    expect(again.body).toEqual(refused.body);
    // Fixed, with the same key: the key belongs to the refused request (rule 4).
    const fixed = await create(linkBody('kept-bad'), key);
    expect([fixed.status, fixed.body.error.code]).toEqual([422, 'idempotency_key_reused']);
    expect((await create(linkBody('kept-bad'))).status).toBe(201);

    const noKey = await call('POST', '/sandbox/api/payout/create', { token: shop.token, body: bad });
    expect([noKey.status, noKey.body.error.code]).toEqual([400, 'idempotency_key_required']);
  });

  it.each([
    ['link', '/sandbox/api/payout/po_bad/link', { rotate: 'yes' }],
    ['session', '/sandbox/api/payout/po_bad/session', {}],
    ['cancel', '/sandbox/api/payout/po_bad/cancel', undefined],
  ])(
    'reports a missing Idempotency-Key on %s before a bad body or an unknown payout',
    async (_endpoint, path, body) => {
      const shop = await merchant(call);
      const noKey = await call('POST', path, { token: shop.token, body });
      expect([noKey.status, noKey.body.error.code]).toEqual([400, 'idempotency_key_required']);
    },
  );

  it('keeps a create refused by an account precondition refused for its key, and still checks them on every request', async () => {
    const owner = await merchant(call, '100.00');
    const switchPayouts = async (enabled: boolean) =>
      expect(
        (
          await call('PUT', '/dashboard/payouts-enabled', {
            token: owner.adminToken,
            body: { environment: 'sandbox', enabled },
          })
        ).status,
      ).toBe(200);
    const createdKey = newKey();
    expect((await create(linkBody('pre-1'), createdKey, owner.token)).status).toBe(201);

    await switchPayouts(false);
    const refusedKey = newKey();
    const refused = await create(linkBody('pre-2'), refusedKey, owner.token);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'payouts_disabled']);
    // Checked on every request: even a key with a stored payout is refused while payouts are off.
    const offReplay = await create(linkBody('pre-1'), createdKey, owner.token);
    expect([offReplay.status, offReplay.body.error.code]).toEqual([403, 'payouts_disabled']);

    await switchPayouts(true);
    const stillRefused = await create(linkBody('pre-2'), refusedKey, owner.token);
    expect([stillRefused.status, stillRefused.headers.get('idempotent-replayed')]).toEqual([403, 'true']);
    expect(stillRefused.body).toEqual(refused.body);
    const replay = await create(linkBody('pre-1'), createdKey, owner.token);
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect((await create(linkBody('pre-2'), newKey(), owner.token)).status).toBe(201);
    const balance = await call('GET', '/sandbox/api/payout/balance', { token: owner.token });
    expect(balance.body.customer_payout_holds).toBe('21.00');
  });

  it('counts text limits in characters everywhere: a 191-emoji customer_id and reference work in create, session and List', async () => {
    const customerId = '\u{1F600}'.repeat(191); // 191 characters, 382 UTF-16 units
    const reference = '\u{1F4B8}'.repeat(191);
    const created = await create({
      amount: '2.00',
      merchant_reference: reference,
      delivery: 'redirect',
      customer_id: customerId,
      return_url: 'https://shop.example.com/done',
    });
    expect(created.status).toBe(201);
    const session = await call('POST', `/sandbox/api/payout/${created.body.payout_id}/session`, {
      token: shop.token,
      key: newKey(),
      body: { customer_id: customerId },
    });
    expect(session.status).toBe(200);
    const byReference = await call(
      'GET',
      `/sandbox/api/payout/list?merchant_reference=${encodeURIComponent(reference)}`,
      {
        token: shop.token,
      },
    );
    expect([byReference.status, byReference.body.total]).toEqual([200, 1]);
    const byCustomer = await call(
      'GET',
      `/sandbox/api/payout/list?customer_id=${encodeURIComponent(customerId)}`,
      {
        token: shop.token,
      },
    );
    expect([byCustomer.status, byCustomer.body.total]).toEqual([200, 1]);
    // One character more is refused in each place, with the field named.
    const tooLong = customerId + '\u{1F600}';
    const refusedSession = await call('POST', `/sandbox/api/payout/${created.body.payout_id}/session`, {
      token: shop.token,
      key: newKey(),
      body: { customer_id: tooLong },
    });
    expect([refusedSession.status, refusedSession.body.error.param]).toEqual([400, 'customer_id']);
    const refusedList = await call(
      'GET',
      `/sandbox/api/payout/list?customer_id=${encodeURIComponent(tooLong)}`,
      {
        token: shop.token,
      },
    );
    expect([refusedList.status, refusedList.body.error.param]).toEqual([400, 'customer_id']);
  });
});

/** The columns (table.column) of every text or jsonb value in the public schema that holds `needle`. */
async function tablesHolding(db: SqlClient, needle: string): Promise<string[]> {
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'jsonb', 'character varying')
      ORDER BY 1, 2`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns.rows) {
    const { rows } = await db.query(
      `SELECT 1 FROM "${table}" WHERE strpos("${column}"::text, $1) > 0 LIMIT 1`,
      [needle],
    );
    if (rows.length > 0) found.push(`${table}.${column}`);
  }
  return found;
}
