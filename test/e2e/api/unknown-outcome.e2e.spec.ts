import type { SqlClient } from '@payouts/database';
import { PostgresEventStore, StreamVersionConflictError } from '@payouts/event-store';
import type { AppendOptions, AppendResult, EventStore, StreamAppend } from '@payouts/event-store';
import { IdempotencyStore, requestHash } from '@payouts/idempotency';
import { MAX_CONFLICT_ATTEMPTS } from '@payouts/write-side';
import { EVENT_STORE, SQL_CLIENT } from '@payouts/platform';
import { client, linkBody, merchant, newKey, PAYOUT_CORE_FIELDS } from './gateway-harness';
import type { Call, Merchant } from './gateway-harness';
import { startTestingGateway, TestingGateway } from './testing-gateway';

/**
 * The event store as the network sees it on a bad day: the next appends of a payout either
 * commit and then "time out" before the answer arrives, or time out before anything was sent.
 * Only payout creation is disturbed; everything else passes through.
 */
class FlakyEventStore {
  faults: ('after_commit' | 'before_send' | 'conflict')[] = [];

  constructor(private readonly inner: EventStore) {
    return new Proxy(this, {
      get: (target, name, receiver) =>
        name in target ? Reflect.get(target, name, receiver) : Reflect.get(inner, name, inner),
    });
  }

  async append(appends: StreamAppend[], options?: AppendOptions): Promise<AppendResult> {
    const createsPayout = appends.some((a) => a.streamType === 'payout' && a.expectedVersion === 'no_stream');
    const fault = createsPayout ? this.faults.shift() : undefined;
    if (fault === 'before_send') throw new Error('timeout: event store did not answer (nothing sent)');
    // Another writer moved the ledger first: the append is refused whole, as the real store does.
    if (fault === 'conflict') throw new StreamVersionConflictError(appends[0]!.streamId, 1, 2);
    const result = await this.inner.append(appends, options);
    if (fault === 'after_commit') throw new Error('timeout: event store did not answer (append committed)');
    return result;
  }
}

describe('a create whose outcome cannot be known', () => {
  let gateway: TestingGateway;
  let flaky: FlakyEventStore;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    gateway = await startTestingGateway((builder) =>
      builder.overrideProvider(EVENT_STORE).useFactory({
        factory: (db: SqlClient) => (flaky = new FlakyEventStore(new PostgresEventStore(db))),
        inject: [SQL_CLIENT],
      }),
    );
    call = client(gateway.url);
  });
  afterAll(() => gateway.close());

  it.each(['after_commit', 'before_send'] as const)(
    'answers 503 attempt_unresolved when the store times out (%s); the retry with the same key gives one payout',
    async (fault) => {
      const shop = await merchant(call, '100.00');
      const reference = `unresolved-${fault}`;
      const key = newKey();
      flaky.faults.push(fault);

      const first = await call('POST', '/sandbox/api/payout/create', {
        token: shop.token,
        key,
        body: linkBody(reference),
      });
      expect([first.status, first.body.error.code]).toEqual([503, 'attempt_unresolved']);

      const found = await call('GET', `/sandbox/api/payout/list?merchant_reference=${reference}`, {
        token: shop.token,
      });
      expect(found.body.total).toBe(fault === 'after_commit' ? 1 : 0);

      const retry = await call('POST', '/sandbox/api/payout/create', {
        token: shop.token,
        key,
        body: linkBody(reference),
      });
      expect(retry.status).toBe(201);
      expect(retry.body).toMatchObject({
        status: 'awaiting_choice',
        amount: '10.00',
        total_reserved: '10.50',
      });
      expect(Object.keys(retry.body).sort()).toEqual(
        [...PAYOUT_CORE_FIELDS, 'payout_url', 'access_link_expires_at', 'payout_expires_at'].sort(),
      );
      if (fault === 'after_commit') {
        // The first attempt wrote it: the retry returns that payout, whose link was never shown.
        expect(retry.body.payout_id).toBe(found.body.data[0].payout_id);
        expect(retry.body.payout_url).toBeNull();
      }

      const replay = await call('POST', '/sandbox/api/payout/create', {
        token: shop.token,
        key,
        body: linkBody(reference),
      });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.payout_id).toBe(retry.body.payout_id);

      await expectBooks(call, shop, reference, { payouts: 1, available: '89.50', holds: '10.50' });
    },
  );

  it('answers contention that outlasts the retries with 409 concurrent_update, writes nothing, and frees the key for its retry', async () => {
    const shop = await merchant(call, '100.00');
    const request = { token: shop.token, key: newKey(), body: linkBody('contended') };
    flaky.faults.push(...Array<'conflict'>(MAX_CONFLICT_ATTEMPTS + 5).fill('conflict'));
    const first = await call('POST', '/sandbox/api/payout/create', request);
    const unused = flaky.faults.length;
    flaky.faults = [];
    expect([first.status, first.body.error.code, first.headers.get('retry-after')]).toEqual([
      409,
      'concurrent_update',
      '1',
    ]);
    expect(unused).toBeGreaterThan(0); // the handler gave up before the faults ran out
    const listed = () =>
      call('GET', '/sandbox/api/payout/list?merchant_reference=contended', { token: shop.token });
    expect((await listed()).body.total).toBe(0);

    const retry = await call('POST', '/sandbox/api/payout/create', request);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect((await listed()).body.total).toBe(1);
  });

  it('answers a guard refusal after an unknown outcome but never keeps it for the released key: the retry after the cause is fixed runs the create', async () => {
    const shop = await merchant(call, '100.00');
    const key = newKey();
    const request = { token: shop.token, key, body: linkBody('unresolved-then-disabled') };
    // Nothing was written and the key was released: only a retry that runs may say what happened.
    flaky.faults.push('before_send');
    const first = await call('POST', '/sandbox/api/payout/create', request);
    expect([first.status, first.body.error.code]).toEqual([503, 'attempt_unresolved']);

    const switchPayouts = (enabled: boolean) =>
      call('PUT', '/dashboard/payouts-enabled', {
        token: shop.adminToken,
        body: { environment: 'sandbox', enabled },
      });
    expect((await switchPayouts(false)).status).toBe(200);
    const refused = await call('POST', '/sandbox/api/payout/create', request);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'payouts_disabled']);
    expect((await switchPayouts(true)).status).toBe(200);

    const retry = await call('POST', '/sandbox/api/payout/create', request);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const listed = await call('GET', '/sandbox/api/payout/list?merchant_reference=unresolved-then-disabled', {
      token: shop.token,
    });
    expect(listed.body.total).toBe(1);
    expect(retry.body.payout_id).toBe(listed.body.data[0].payout_id);
  });
});

/** How many payouts carry the reference, and the merchant's balance (funded with 100.00). */
async function expectBooks(
  call: Call,
  shop: Merchant,
  reference: string,
  books: { payouts: number; available: string; holds: string },
): Promise<void> {
  const listed = await call('GET', `/sandbox/api/payout/list?merchant_reference=${reference}`, {
    token: shop.token,
  });
  expect(listed.body.total).toBe(books.payouts);
  const balance = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
  expect(balance.body).toMatchObject({
    available_for_new_commitments: books.available,
    customer_payout_holds: books.holds,
  });
}

/** Nothing written: no payout with the reference, and the 100.00 untouched. */
const expectNoPayout = (call: Call, shop: Merchant, reference: string) =>
  expectBooks(call, shop, reference, { payouts: 0, available: '100.00', holds: '0.00' });

/**
 * The event store of a gateway whose creates are disturbed where their answer is written: in the
 * create's own commit, beside its events (the plan's idempotency row). `beforeCreate` runs just
 * before a create's commit; `failInsideCreate` fails the next create's commit from inside its
 * transaction, after its rows were issued, as a connection reset there would.
 */
class DisturbedCreates {
  beforeCreate: (() => Promise<void>) | undefined;
  failInsideCreate = false;

  constructor(private readonly inner: EventStore) {
    return new Proxy(this, {
      get: (target, name, receiver) =>
        name in target ? Reflect.get(target, name, receiver) : Reflect.get(inner, name, inner),
    });
  }

  async append(appends: StreamAppend[], options?: AppendOptions): Promise<AppendResult> {
    const createsPayout = appends.some((a) => a.streamType === 'payout' && a.expectedVersion === 'no_stream');
    if (!createsPayout) return this.inner.append(appends, options);
    const before = this.beforeCreate;
    this.beforeCreate = undefined;
    await before?.();
    const fail = this.failInsideCreate;
    this.failInsideCreate = false;
    const inTransaction = options?.inTransaction;
    return this.inner.append(appends, {
      inTransaction: async (tx, events) => {
        await inTransaction?.(tx, events);
        if (fail) throw new Error('connection reset while storing the answer');
      },
    });
  }
}

function startGatewayWithDisturbedCreates(): Promise<{ gateway: TestingGateway; creates: DisturbedCreates }> {
  let creates: DisturbedCreates | undefined;
  return startTestingGateway((builder) =>
    builder.overrideProvider(EVENT_STORE).useFactory({
      factory: (db: SqlClient) => (creates = new DisturbedCreates(new PostgresEventStore(db))),
      inject: [SQL_CLIENT],
    }),
  ).then((gateway) => ({ gateway, creates: creates! }));
}

describe('a create whose answer could not be stored', () => {
  let gateway: TestingGateway;
  let creates: DisturbedCreates;

  beforeAll(async () => {
    ({ gateway, creates } = await startGatewayWithDisturbedCreates());
  });
  afterAll(() => gateway.close());

  it('writes nothing, answers 503 attempt_unresolved, and the retry with the same key creates the payout once', async () => {
    const call = client(gateway.url);
    const shop = await merchant(call, '100.00');
    const key = newKey();
    creates.failInsideCreate = true;
    const first = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key,
      body: linkBody('unstored'),
    });
    expect([first.status, first.body.error.code]).toEqual([503, 'attempt_unresolved']);
    // The payout and its stored answer commit together: neither was written.
    await expectNoPayout(call, shop, 'unstored');

    const retry = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key,
      body: linkBody('unstored'),
    });
    expect(retry.status).toBe(201);
    expect(retry.body.payout_url).toEqual(expect.stringContaining('http'));
    const replay = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key,
      body: linkBody('unstored'),
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.payout_id).toBe(retry.body.payout_id);
    expect(replay.body.payout_url).toBeNull();
    const listed = await call('GET', '/sandbox/api/payout/list?merchant_reference=unstored', {
      token: shop.token,
    });
    expect(listed.body.total).toBe(1);
    expect(listed.body.data[0].payout_id).toBe(retry.body.payout_id);
  });
});

describe('a create whose key another process claims while it runs', () => {
  let gateway: TestingGateway;
  let creates: DisturbedCreates;
  let db: SqlClient;

  beforeAll(async () => {
    ({ gateway, creates } = await startGatewayWithDisturbedCreates());
    db = gateway.app.get<SqlClient>(SQL_CLIENT);
  });
  afterAll(() => gateway.close());

  it('writes nothing and answers as the claim decides: in progress, then its answer', async () => {
    const call = client(gateway.url);
    const shop = await merchant(call, '100.00');
    const key = newKey();
    const body = linkBody('raced');
    const scope = {
      accountId: shop.accountId,
      environment: 'sandbox',
      method: 'POST',
      path: '/api/payout/create',
    } as const;
    const hash = requestHash('POST', scope.path, body);
    let other: IdempotencyStore | undefined;
    // Right before the create commits its key with its answer, another gateway process claims it.
    creates.beforeCreate = async () => {
      const store = new IdempotencyStore(db);
      other = store;
      expect(await store.begin(scope, key, hash, 'po_other')).toMatchObject({ kind: 'proceed' });
    };

    const raced = await call('POST', '/sandbox/api/payout/create', { token: shop.token, key, body });
    expect([raced.status, raced.body.error.code]).toEqual([409, 'idempotency_key_in_progress']);
    await expectNoPayout(call, shop, 'raced');

    // The other process finishes with its answer: this key replays it from now on.
    await other!.complete(scope, key, 422, { error: { code: 'amount_out_of_range', message: 'elsewhere' } });
    const replay = await call('POST', '/sandbox/api/payout/create', { token: shop.token, key, body });
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body.error.message]).toEqual([
      422,
      'true',
      'elsewhere',
    ]);
  });
});
