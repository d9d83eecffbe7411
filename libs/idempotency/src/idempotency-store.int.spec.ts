import { randomUUID } from 'node:crypto';
import { PostgresSqlClient } from '@payouts/database';
import { batchingRows } from '@payouts/write-side';
import { testBackends, TestDatabase } from '@payouts/testing';
import { requestHash } from './idempotency-key';
import { IdempotencyStore } from './idempotency-store';
import { IdempotencyDecision, IdempotencyKeyTakenError, IdempotencyScope } from './idempotency-values';

const LEASE_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const CREATE: IdempotencyScope = {
  accountId: 'acct_1',
  environment: 'production',
  method: 'POST',
  path: '/api/payout/create',
};
const BODY = { amount: '25.00', merchant_reference: 'inv-1', delivery: 'link' };
const HASH = requestHash(CREATE.method, CREATE.path, BODY);

/** A clock the test moves by hand. Every test but the purge's starts in 2030, the purge's in 2000. */
class TestClock {
  private ms: number;
  constructor(start: string) {
    this.ms = Date.parse(start);
  }
  readonly now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

function newKey(): string {
  return `key-${randomUUID()}`;
}

describe.each(testBackends())('idempotency keys on $name', (backend) => {
  let database: TestDatabase;
  let clock: TestClock;
  let store: IdempotencyStore;

  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(() => {
    clock = new TestClock('2030-01-01T00:00:00.000Z');
    store = new IdempotencyStore(database.db, { leaseMs: LEASE_MS, now: clock.now });
  });

  it('keeps only 64 lowercase hex characters as a request hash (migration 0017: no regex)', async () => {
    const insert = (hash: string) =>
      database.db.query(
        `INSERT INTO idempotency_keys (account_id, environment, method, path, idempotency_key, request_hash,
           state, resource_id)
         VALUES ('acct_hash', 'production', 'POST', '/x', $1, $2, 'in_flight', 'r')`,
        [newKey(), hash],
      );
    const refused = [
      'a'.repeat(63),
      'a'.repeat(65),
      'A'.repeat(64),
      `${'a'.repeat(63)}g`,
      `${'a'.repeat(62)}\u00e9`, // 64 bytes, 63 characters
      `${'a'.repeat(63)}\n`,
      '',
    ];
    for (const hash of refused) {
      await expect(insert(hash)).rejects.toMatchObject({ code: '23514' });
    }
    await expect(insert('0123456789abcdef'.repeat(4))).resolves.toBeDefined();
  });

  it('lets the first request proceed with the resource id it proposed', async () => {
    await expect(store.begin(CREATE, newKey(), HASH, 'po_1')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_1',
      retryOfUnresolved: false,
    });
  });

  it('replays the stored status and body once the first request completed', async () => {
    const key = newKey();
    await store.begin(CREATE, key, HASH, 'po_1');
    const answer = {
      payout_id: 'po_1',
      status: 'awaiting_choice',
      status_version: 1,
      amount: '25.00',
      funds_released: false,
      payout_url: null,
      nested: { list: [1, 'two', { three: 3.5 }], empty: {} },
    };
    await store.complete(CREATE, key, 201, answer);

    const replay = await store.begin(CREATE, key, HASH, 'po_2');
    expect(replay).toEqual({ kind: 'replay', status: 201, body: answer });
    // Again later: a completed key answers the same for as long as it is kept.
    clock.advance(29 * DAY_MS);
    await expect(store.begin(CREATE, key, HASH, 'po_3')).resolves.toEqual(replay);
  });

  it('replays a deep-equal body whose object keys come back in jsonb order, not the order stored', async () => {
    const key = newKey();
    await store.begin(CREATE, key, HASH, 'po_1');
    await store.complete(CREATE, key, 201, { payout_url: null, amount: '1.00', id: 'po_1' });

    const replay = (await store.begin(CREATE, key, HASH, 'po_1')) as Extract<
      IdempotencyDecision,
      { kind: 'replay' }
    >;
    expect(replay.body).toEqual({ payout_url: null, amount: '1.00', id: 'po_1' });
    // jsonb orders keys shorter first, then bytewise.
    expect(Object.keys(replay.body as object)).toEqual(['id', 'amount', 'payout_url']);
  });

  it.each([
    ['no body', undefined],
    ['a JSON null', null],
    ['a string', 'done'],
    ['an array', [{ b: 2, a: 1 }, null, true]],
    ['text with a backslash before u0000', { note: 'C:\\u0000 is not a NUL' }],
    ['characters outside ASCII', { name: 'Zoë 🚀' }],
  ])('replays %s exactly', async (_name, body) => {
    const key = newKey();
    await store.begin(CREATE, key, HASH, 'po_1');
    await store.complete(CREATE, key, 204, body);
    await expect(store.begin(CREATE, key, HASH, 'po_1')).resolves.toEqual({
      kind: 'replay',
      status: 204,
      body,
    });
  });

  it('packs first answers pages full, since most keys are written once (migration 0016)', async () => {
    // A create's first attempt inserts its key with its answer and nothing updates it later: a page
    // kept mostly empty for updates (0013's fillfactor of 25) held two such rows, a full one holds
    // seven or more.
    const scope = { ...CREATE, accountId: 'acct_first_answers' };
    const answer = { payout_id: 'po_1', description: 'x'.repeat(700) };
    for (let i = 0; i < 40; i += 1) {
      await database.db.transaction((tx) =>
        store.claimWithin(tx, scope, newKey(), { hash: HASH, resourceId: `po_${i}` }, 201, answer),
      );
    }
    const { rows } = await database.db.query<{ pages: string }>(
      `SELECT count(DISTINCT (ctid::text::point)[0])::text AS pages FROM idempotency_keys WHERE account_id = $1`,
      [scope.accountId],
    );
    expect(Number(rows[0]!.pages)).toBeLessThanOrEqual(7);
  });

  it('keeps a rejected create rejected for its key: a 4xx answer replays too', async () => {
    const key = newKey();
    await store.begin(CREATE, key, HASH, 'po_1');
    const rejection = { error: { code: 'insufficient_funds', message: 'Not enough available funds' } };
    await store.complete(CREATE, key, 409, rejection);

    await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({
      kind: 'replay',
      status: 409,
      body: rejection,
    });
  });

  it('answers mismatch to the same key with another request, in flight or completed', async () => {
    const key = newKey();
    const otherHash = requestHash(CREATE.method, CREATE.path, { ...BODY, amount: '26.00' });
    await store.begin(CREATE, key, HASH, 'po_1');
    await expect(store.begin(CREATE, key, otherHash, 'po_2')).resolves.toEqual({ kind: 'mismatch' });

    await store.complete(CREATE, key, 201, { payout_id: 'po_1' });
    await expect(store.begin(CREATE, key, otherHash, 'po_2')).resolves.toEqual({ kind: 'mismatch' });
  });

  it('answers in_progress while the first attempt holds its lease, up to its last millisecond', async () => {
    const key = newKey();
    await store.begin(CREATE, key, HASH, 'po_1');
    await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({ kind: 'in_progress' });
    clock.advance(LEASE_MS);
    await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({ kind: 'in_progress' });
  });

  it('lets a retry take over an attempt whose lease expired, with the stored resource id', async () => {
    const key = newKey();
    await store.begin(CREATE, key, HASH, 'po_1');
    clock.advance(LEASE_MS + 1);

    await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_1',
      retryOfUnresolved: true,
    });
    // The retry now holds a fresh lease of its own.
    await expect(store.begin(CREATE, key, HASH, 'po_3')).resolves.toEqual({ kind: 'in_progress' });
    clock.advance(LEASE_MS + 1);
    await expect(store.begin(CREATE, key, HASH, 'po_3')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_1',
      retryOfUnresolved: true,
    });
  });

  it('lets the next retry proceed at once with the same resource id after a release', async () => {
    const key = newKey();
    await store.begin(CREATE, key, HASH, 'po_1');
    await store.release(CREATE, key);

    await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_1',
      retryOfUnresolved: true,
    });
    await expect(store.begin(CREATE, key, HASH, 'po_3')).resolves.toEqual({ kind: 'in_progress' });
    await store.complete(CREATE, key, 201, { payout_id: 'po_1' });
    await expect(store.begin(CREATE, key, HASH, 'po_4')).resolves.toEqual({
      kind: 'replay',
      status: 201,
      body: { payout_id: 'po_1' },
    });
  });

  it('keeps the first answer when a slow attempt completes after a retry did, and ignores a late release', async () => {
    const key = newKey();
    await store.begin(CREATE, key, HASH, 'po_1');
    clock.advance(LEASE_MS + 1);
    await store.begin(CREATE, key, HASH, 'po_1');
    await store.complete(CREATE, key, 201, { payout_id: 'po_1', by: 'retry' });

    await store.complete(CREATE, key, 201, { payout_id: 'po_1', by: 'slow first attempt' });
    await store.release(CREATE, key);
    await expect(store.begin(CREATE, key, HASH, 'po_1')).resolves.toEqual({
      kind: 'replay',
      status: 201,
      body: { payout_id: 'po_1', by: 'retry' },
    });
  });

  it("stores a group's answers in one statement: each key its own, the first of a key given twice, a completed key kept", async () => {
    const [first, second, twice, done] = [newKey(), newKey(), newKey(), newKey()];
    for (const key of [first, second, twice, done]) await store.begin(CREATE, key, HASH, `po_${key}`);
    await store.complete(CREATE, done, 201, { by: 'earlier' });

    await database.db.transaction(async (tx) => {
      // Completed in the same turn through a batching queryable: one call of complete_idempotency_keys.
      const batched = batchingRows(tx);
      await Promise.all([
        store.completeWithin(batched, CREATE, first, 201, { by: 'first' }),
        store.completeWithin(batched, CREATE, twice, 201, { by: 'twice, first' }),
        store.completeWithin(batched, CREATE, second, 422, { by: 'second' }),
        store.completeWithin(batched, CREATE, twice, 201, { by: 'twice, second' }),
        store.completeWithin(batched, CREATE, done, 201, { by: 'late' }),
      ]);
    });

    const answers = await Promise.all(
      [first, second, twice, done].map((key) => store.begin(CREATE, key, HASH, 'po_other')),
    );
    expect(answers).toEqual([
      { kind: 'replay', status: 201, body: { by: 'first' } },
      { kind: 'replay', status: 422, body: { by: 'second' } },
      { kind: 'replay', status: 201, body: { by: 'twice, first' } },
      { kind: 'replay', status: 201, body: { by: 'earlier' } },
    ]);
  });

  describe('a key not seen before, inserted with its answer by the work (no claim of its own)', () => {
    const attempt = { hash: HASH, resourceId: 'po_1' };

    /** Whether the key has a row in the scope, whatever its state. */
    const readUsed = async (scope: IdempotencyScope, key: string): Promise<boolean> => {
      const { rows } = await database.db.query(
        `SELECT 1 FROM idempotency_keys
          WHERE account_id = $1 AND environment = $2 AND method = $3 AND path = $4 AND idempotency_key = $5`,
        [scope.accountId, scope.environment, scope.method, scope.path, key],
      );
      return rows.length > 0;
    };

    it('replays like a completed claim once inserted', async () => {
      const key = newKey();
      await database.db.transaction((tx) =>
        store.claimWithin(tx, CREATE, key, attempt, 201, { payout_id: 'po_1' }),
      );
      await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({
        kind: 'replay',
        status: 201,
        body: { payout_id: 'po_1' },
      });
      await expect(store.begin(CREATE, key, requestHash('POST', CREATE.path, {}), 'po_2')).resolves.toEqual({
        kind: 'mismatch',
      });
    });

    it('writes nothing when its transaction rolls back', async () => {
      const key = newKey();
      await expect(
        database.db.transaction(async (tx) => {
          await store.claimWithin(tx, CREATE, key, attempt, 201, { payout_id: 'po_1' });
          throw new Error('the work failed after storing its answer');
        }),
      ).rejects.toThrow('the work failed');
      await expect(readUsed(CREATE, key)).resolves.toBe(false);
    });

    it('is refused with IdempotencyKeyTakenError, rolling its transaction back, once another request claimed the key', async () => {
      const key = newKey();
      await expect(readUsed(CREATE, key)).resolves.toBe(false);
      // Another request (another process) claims it in between.
      await expect(store.begin(CREATE, key, HASH, 'po_other')).resolves.toMatchObject({ kind: 'proceed' });
      const marker = `marker-${randomUUID()}`;
      await expect(
        database.db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO idempotency_keys (account_id, environment, method, path, idempotency_key, request_hash,
               state, resource_id, locked_until, created_at)
             VALUES ('acct_marker', 'production', 'POST', '/x', $1, $2, 'in_flight', 'r', NULL, now())`,
            [marker, HASH],
          );
          await store.claimWithin(tx, CREATE, key, attempt, 201, { payout_id: 'po_1' });
        }),
      ).rejects.toBeInstanceOf(IdempotencyKeyTakenError);
      const { rows } = await database.db.query('SELECT 1 FROM idempotency_keys WHERE idempotency_key = $1', [
        marker,
      ]);
      expect(rows).toHaveLength(0);
      // The claim is untouched: still in flight for the other request.
      await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({ kind: 'in_progress' });
    });

    it('stores a refusal as the first answer, or says the key was taken', async () => {
      const key = newKey();
      const refusal = { error: { code: 'amount_out_of_range', message: 'too much' } };
      await expect(store.storeFirstAnswer(CREATE, key, attempt, 422, refusal)).resolves.toBe(true);
      await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({
        kind: 'replay',
        status: 422,
        body: refusal,
      });
      await expect(store.storeFirstAnswer(CREATE, key, attempt, 201, {})).resolves.toBe(false);
      await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toMatchObject({ status: 422 });
    });

    it('leaves an unknown outcome as a released claim: the retry proceeds with the same resource id', async () => {
      const key = newKey();
      await store.releaseUnclaimed(CREATE, key, attempt);
      await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({
        kind: 'proceed',
        resourceId: 'po_1',
        retryOfUnresolved: true,
      });
    });

    it('keeps the answer of an attempt that did commit when its outcome is released as unknown', async () => {
      const key = newKey();
      await database.db.transaction((tx) => store.claimWithin(tx, CREATE, key, attempt, 201, { id: 1 }));
      await store.releaseUnclaimed(CREATE, key, attempt);
      await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({
        kind: 'replay',
        status: 201,
        body: { id: 1 },
      });
    });

    it("inserts a group's keys in one statement, each answered for its own", async () => {
      const [first, taken, third] = [newKey(), newKey(), newKey()];
      await store.begin(CREATE, taken, HASH, 'po_taken');
      const outcomes = await database.db.transaction(async (tx) => {
        const batched = batchingRows(tx);
        const settled = await Promise.allSettled(
          [first, taken, third].map((key) => store.claimWithin(batched, CREATE, key, attempt, 201, { key })),
        );
        return settled.map((o) => o.status);
      });
      // The transaction committed (the caller decides); only the taken key was refused.
      expect(outcomes).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      await expect(store.begin(CREATE, first, HASH, 'x')).resolves.toMatchObject({
        kind: 'replay',
        body: { key: first },
      });
      await expect(store.begin(CREATE, third, HASH, 'x')).resolves.toMatchObject({
        kind: 'replay',
        body: { key: third },
      });
    });
  });

  it('refuses to complete or release a key that was never begun', async () => {
    await expect(store.complete(CREATE, newKey(), 201, {})).rejects.toThrow(/no idempotency key was begun/);
    await expect(store.release(CREATE, newKey())).rejects.toThrow(/no idempotency key was begun/);
  });

  it('refuses bad input before touching the database', async () => {
    const key = newKey();
    await expect(store.begin(CREATE, '', HASH, 'po_1')).rejects.toThrow(RangeError);
    await expect(store.begin(CREATE, 'k'.repeat(256), HASH, 'po_1')).rejects.toThrow(RangeError);
    await expect(store.begin(CREATE, key, 'not-a-hash', 'po_1')).rejects.toThrow(RangeError);
    await expect(store.begin(CREATE, key, HASH, '')).rejects.toThrow(RangeError);
    await expect(
      store.begin({ ...CREATE, environment: 'staging' as 'sandbox' }, key, HASH, 'po_1'),
    ).rejects.toThrow(RangeError);

    await store.begin(CREATE, key, HASH, 'po_1');
    await expect(store.complete(CREATE, key, 42, {})).rejects.toThrow(RangeError);
    await expect(store.complete(CREATE, key, 201, { text: 'nul \u0000' })).rejects.toThrow(
      /jsonb cannot store/,
    );
    await expect(store.complete(CREATE, key, 201, { text: 'lone \ud800' })).rejects.toThrow(
      /jsonb cannot store/,
    );
    // Still in flight: the refused answers stored nothing.
    await expect(store.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({ kind: 'in_progress' });
  });

  it('keeps scopes apart: the same key under another account, environment, method or path is independent', async () => {
    const key = newKey();
    const scopes: IdempotencyScope[] = [
      CREATE,
      { ...CREATE, accountId: 'acct_2' },
      { ...CREATE, environment: 'sandbox' },
      { ...CREATE, path: '/api/payout/po_9/cancel' },
      { ...CREATE, method: 'PUT' },
    ];
    for (const [index, scope] of scopes.entries()) {
      await expect(store.begin(scope, key, HASH, `po_${index}`)).resolves.toEqual({
        kind: 'proceed',
        resourceId: `po_${index}`,
        retryOfUnresolved: false,
      });
    }
    await store.complete(scopes[1]!, key, 201, { payout_id: 'po_1' });
    await store.release(scopes[2]!, key);

    await expect(store.begin(scopes[0]!, key, HASH, 'x')).resolves.toEqual({ kind: 'in_progress' });
    await expect(store.begin(scopes[1]!, key, HASH, 'x')).resolves.toEqual({
      kind: 'replay',
      status: 201,
      body: { payout_id: 'po_1' },
    });
    await expect(store.begin(scopes[2]!, key, HASH, 'x')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_2',
      retryOfUnresolved: true,
    });
    await expect(store.begin(scopes[3]!, key, HASH, 'x')).resolves.toEqual({ kind: 'in_progress' });
  });

  it('treats a key first used more than 30 days ago as new: another body proceeds, with no mismatch or replay', async () => {
    const key = newKey();
    const otherHash = requestHash(CREATE.method, CREATE.path, { ...BODY, amount: '26.00' });
    await store.begin(CREATE, key, HASH, 'po_old');
    await store.complete(CREATE, key, 201, { payout_id: 'po_old' });

    // Exactly 30 days after its first use the key is still kept: it replays, and refuses another body.
    clock.advance(30 * DAY_MS);
    await expect(store.begin(CREATE, key, HASH, 'po_x')).resolves.toEqual({
      kind: 'replay',
      status: 201,
      body: { payout_id: 'po_old' },
    });
    await expect(store.begin(CREATE, key, otherHash, 'po_x')).resolves.toEqual({ kind: 'mismatch' });

    // One millisecond later it is gone, purged or not: the request is new.
    clock.advance(1);
    await expect(store.begin(CREATE, key, otherHash, 'po_new')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_new',
      retryOfUnresolved: false,
    });
    // From here on the key means the new request, with a fresh lease and a fresh 30 days.
    await expect(store.begin(CREATE, key, otherHash, 'po_y')).resolves.toEqual({ kind: 'in_progress' });
    await expect(store.begin(CREATE, key, HASH, 'po_y')).resolves.toEqual({ kind: 'mismatch' });
    await store.complete(CREATE, key, 201, { payout_id: 'po_new' });
    clock.advance(29 * DAY_MS);
    await expect(store.begin(CREATE, key, otherHash, 'po_z')).resolves.toEqual({
      kind: 'replay',
      status: 201,
      body: { payout_id: 'po_new' },
    });
  });

  it('treats the same request again after 30 days as new too, and so an unresolved attempt that old', async () => {
    const [completedKey, releasedKey] = [newKey(), newKey()];
    await store.begin(CREATE, completedKey, HASH, 'po_done');
    await store.complete(CREATE, completedKey, 409, { error: { code: 'insufficient_funds' } });
    await store.begin(CREATE, releasedKey, HASH, 'po_unresolved');
    await store.release(CREATE, releasedKey);

    clock.advance(30 * DAY_MS + 1);
    await expect(store.begin(CREATE, completedKey, HASH, 'po_1')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_1',
      retryOfUnresolved: false,
    });
    await expect(store.begin(CREATE, releasedKey, HASH, 'po_2')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_2',
      retryOfUnresolved: false,
    });
    await store.complete(CREATE, completedKey, 201, { payout_id: 'po_1' });
    await expect(store.begin(CREATE, completedKey, HASH, 'po_3')).resolves.toEqual({
      kind: 'replay',
      status: 201,
      body: { payout_id: 'po_1' },
    });
  });

  it('uses the database clock when given none', async () => {
    const dbClockStore = new IdempotencyStore(database.db);
    const key = newKey();
    await expect(dbClockStore.begin(CREATE, key, HASH, 'po_1')).resolves.toMatchObject({ kind: 'proceed' });
    await expect(dbClockStore.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({ kind: 'in_progress' });
    await dbClockStore.release(CREATE, key);
    await expect(dbClockStore.begin(CREATE, key, HASH, 'po_2')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_1',
      retryOfUnresolved: true,
    });
    await dbClockStore.complete(CREATE, key, 201, { ok: true });
    await expect(dbClockStore.begin(CREATE, key, HASH, 'po_3')).resolves.toEqual({
      kind: 'replay',
      status: 201,
      body: { ok: true },
    });
  });

  describe('50 requests with one key at the same moment', () => {
    const PARALLEL = 50;
    let stores: IdempotencyStore[];
    let clients: PostgresSqlClient[];

    beforeEach(() => {
      // On the server, ten pools of five connections stand for gateway processes; PGlite has one
      // connection, so there the begins interleave statement by statement.
      clients =
        backend.name === 'postgres'
          ? Array.from(
              { length: 10 },
              () => new PostgresSqlClient({ connectionString: database.url!, maxConnections: 5 }),
            )
          : [];
      stores =
        clients.length > 0
          ? clients.map((client) => new IdempotencyStore(client, { leaseMs: LEASE_MS, now: clock.now }))
          : [store];
    });
    afterEach(async () => {
      await Promise.all(clients.map((client) => client.close()));
    });

    function beginAll(key: string): Promise<IdempotencyDecision[]> {
      return Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          stores[i % stores.length]!.begin(CREATE, key, HASH, `po_${i}`),
        ),
      );
    }

    it('let exactly one proceed and answer in_progress to the others', async () => {
      const decisions = await beginAll(newKey());
      const proceeds = decisions.filter((d) => d.kind === 'proceed');
      expect(proceeds).toHaveLength(1);
      expect(proceeds[0]).toMatchObject({ retryOfUnresolved: false });
      expect(decisions.filter((d) => d.kind === 'in_progress')).toHaveLength(PARALLEL - 1);
    });

    it('let exactly one take over an expired lease, with the stored resource id', async () => {
      const key = newKey();
      await store.begin(CREATE, key, HASH, 'po_first');
      clock.advance(LEASE_MS + 1);

      const decisions = await beginAll(key);
      expect(decisions.filter((d) => d.kind === 'proceed')).toEqual([
        { kind: 'proceed', resourceId: 'po_first', retryOfUnresolved: true },
      ]);
      expect(decisions.filter((d) => d.kind === 'in_progress')).toHaveLength(PARALLEL - 1);
    });
    it.each(['a completed', 'an in-flight'])(
      'let exactly one replace %s key first used more than 30 days ago; the others see it in progress',
      async (state) => {
        const key = newKey();
        const otherHash = requestHash(CREATE.method, CREATE.path, { ...BODY, amount: '99.00' });
        await store.begin(CREATE, key, otherHash, 'po_old');
        if (state === 'a completed') await store.complete(CREATE, key, 201, { payout_id: 'po_old' });
        clock.advance(30 * DAY_MS + 1);

        const decisions = await beginAll(key);
        const proceeds = decisions.filter((d) => d.kind === 'proceed');
        expect(proceeds).toHaveLength(1);
        expect(proceeds[0]).toMatchObject({
          retryOfUnresolved: false,
          resourceId: expect.stringMatching(/^po_\d+$/),
        });
        expect(decisions.filter((d) => d.kind === 'in_progress')).toHaveLength(PARALLEL - 1);
      },
    );
  });

  it('purges only keys first used more than 30 days ago', async () => {
    // This test runs in 2000, before every other row in this database.
    const purgeClock = new TestClock('2000-01-01T00:00:00.000Z');
    const purging = new IdempotencyStore(database.db, { leaseMs: LEASE_MS, now: purgeClock.now });
    const [oldKey, youngKey] = [newKey(), newKey()];
    await purging.begin(CREATE, oldKey, HASH, 'po_old');
    await purging.complete(CREATE, oldKey, 201, { payout_id: 'po_old' });
    purgeClock.advance(1);
    await purging.begin(CREATE, youngKey, HASH, 'po_young');

    purgeClock.advance(30 * DAY_MS - 1);
    await expect(purging.purgeExpired()).resolves.toBe(0); // exactly 30 days old: still kept
    purgeClock.advance(1);
    await expect(purging.purgeExpired()).resolves.toBe(1);
    await expect(purging.purgeExpired()).resolves.toBe(0);

    // The purged key is new again; the younger one is untouched (in flight, its lease long over).
    await expect(purging.begin(CREATE, oldKey, HASH, 'po_new')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_new',
      retryOfUnresolved: false,
    });
    await expect(purging.begin(CREATE, youngKey, HASH, 'po_other')).resolves.toEqual({
      kind: 'proceed',
      resourceId: 'po_young',
      retryOfUnresolved: true,
    });
  });
});
