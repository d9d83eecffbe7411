import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase, SqlClient } from '@payouts/database';
import { DAY_MS } from '@payouts/domain';
import { IdempotencyScope, IdempotencyStore, requestHash } from '@payouts/idempotency';
import { createServerDatabase, testBackends } from '@payouts/testing';
import { linkBody, merchant, newKey } from '../api/gateway-harness';
import { startWorkerGateway, Storage, WorkerGateway } from './worker-harness';

const SCOPE: IdempotencyScope = {
  accountId: 'acct_seeded',
  environment: 'sandbox',
  method: 'POST',
  path: '/sandbox/api/payout/create',
};
const HASH = requestHash(SCOPE.method, SCOPE.path, linkBody('seeded'));

/** Persistent storage, migrated and open, so a test can write rows before the app first starts. */
async function seededStorage(backend: 'pglite' | 'postgres') {
  if (backend === 'postgres') {
    const server = await createServerDatabase();
    const db = await openDatabase({ databaseUrl: server.url, dataDir: ':memory:', maxConnections: 2 });
    await migrate(db);
    return { storage: { databaseUrl: server.url } as Storage, db, remove: server.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'payouts-idempotency-'));
  const db = await openDatabase({ dataDir: dir });
  await migrate(db);
  return {
    storage: { dataDir: dir } as Storage,
    db,
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A key first used `ageMs` before now, completed or left in flight. */
async function seedKey(db: SqlClient, key: string, ageMs: number, completed: boolean): Promise<void> {
  const store = new IdempotencyStore(db, { now: () => new Date(Date.now() - ageMs) });
  await store.begin(SCOPE, key, HASH, `po_${key}`);
  if (completed) await store.complete(SCOPE, key, 201, { payout_id: `po_${key}` });
}

async function storedKeys(db: SqlClient): Promise<string[]> {
  const { rows } = await db.query<{ idempotency_key: string }>(
    'SELECT idempotency_key FROM idempotency_keys WHERE account_id = $1 ORDER BY idempotency_key',
    [SCOPE.accountId],
  );
  return rows.map((r) => r.idempotency_key);
}

describe.each(testBackends().map((b) => b.name))('idempotency keys kept 30 days, on %s', (backend) => {
  let gateway: WorkerGateway | undefined;
  let remove: () => Promise<void> = async () => undefined;

  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
    await remove();
  });

  it('the worker purges the keys first used more than 30 days ago, and only those', async () => {
    const seeded = await seededStorage(backend);
    remove = seeded.remove;
    await seedKey(seeded.db, 'old-completed', 31 * DAY_MS, true);
    await seedKey(seeded.db, 'old-in-flight', 30 * DAY_MS + 60_000, false);
    await seedKey(seeded.db, 'young-completed', 29 * DAY_MS, true);
    await seedKey(seeded.db, 'young-in-flight', 0, false);
    expect(await storedKeys(seeded.db)).toHaveLength(4);
    await seeded.db.close();

    gateway = await startWorkerGateway(seeded.storage);
    const deadline = Date.now() + 20_000;
    let left = await storedKeys(gateway.db);
    while (left.length > 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      left = await storedKeys(gateway.db);
    }
    expect(left).toEqual(['young-completed', 'young-in-flight']);
  }, 60_000);

  it('answers a key reused after 30 days as a new request: another payout, not 422 or a replay', async () => {
    const seeded = await seededStorage(backend);
    remove = seeded.remove;
    await seeded.db.close();
    gateway = await startWorkerGateway(seeded.storage);
    const shop = await merchant(gateway.call, '1000.00');
    const key = newKey();
    // Each reference with its own amount, so the answer shows which request it is for.
    const post = (reference: 'retention-1' | 'retention-2') =>
      gateway!.call('POST', '/sandbox/api/payout/create', {
        token: shop.token,
        key,
        body: linkBody(reference, reference === 'retention-1' ? '5.00' : '6.00'),
      });

    const first = await post('retention-1');
    expect(first.status).toBe(201);
    expect((await post('retention-2')).status).toBe(422);
    const replay = await post('retention-1');
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);

    // The key's first use moves back past the 30 days. The worker purged at its start, so the row
    // stays and the gateway itself must see it is too old (were it purged, the answer is the same).
    await gateway.db.query(
      `UPDATE idempotency_keys SET created_at = created_at - interval '30 days 1 minute'
        WHERE idempotency_key = $1`,
      [key],
    );
    const reused = await post('retention-2');
    expect(reused.status).toBe(201);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect(reused.body.payout_id).not.toBe(first.body.payout_id);
    expect(reused.body.amount).toBe('6.00');
    // And from now on the key stands for the new request.
    const again = await post('retention-2');
    expect([again.status, again.body.payout_id]).toEqual([201, reused.body.payout_id]);
    expect((await post('retention-1')).status).toBe(422);
  }, 60_000);
});
