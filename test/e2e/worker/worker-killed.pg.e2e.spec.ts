import { randomBytes } from 'node:crypto';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import { PostgresReceivingDetailsVault } from '@payouts/claims';
import { PostgresSqlClient } from '@payouts/database';
import { payoutStreamId } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { ConfirmPayoutCommand, PayoutsModule } from '@payouts/payouts';
import { assertMoneyInvariants, createServerDatabase, TestInfrastructureModule } from '@payouts/testing';
import { client, linkBody, merchant, newKey, OPERATOR_TOKEN } from '../api/gateway-harness';
import { RunningApp, startApp, stop, waitFor200 } from '../spawn-app';
import { DETAILS, waitForPayout } from './worker-harness';

/**
 * Production shape: the API gateway, the projector and the worker as their own processes on one PostgreSQL
 * server. The worker is killed (SIGKILL: no shutdown hook runs) between sending a payout through
 * the rail and hearing back; a new worker pays it, once.
 */
describe('a worker killed mid-send', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: PostgresSqlClient;
  let close: () => Promise<void>;
  let commands: CommandBus;
  const encryptionKey = randomBytes(32).toString('base64');
  const apps: RunningApp[] = [];

  beforeAll(async () => {
    database = await createServerDatabase();
    db = new PostgresSqlClient({ connectionString: database.url, maxConnections: 4 });
    const moduleRef = await Test.createTestingModule({
      imports: [CqrsModule.forRoot(), TestInfrastructureModule.over(db), PayoutsModule],
    }).compile();
    await moduleRef.init();
    commands = moduleRef.get(CommandBus);
    close = () => moduleRef.close();
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => stop(app)));
    await close();
    await db.close();
    await database.drop();
  });

  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: database.url,
    OPERATOR_TOKEN,
    ENCRYPTION_KEY: encryptionKey,
    WORKER_POLL_MS: '25',
    LOG_LEVEL: 'warn',
    ...extra,
  });

  async function railRows(payoutId: string) {
    const { rows } = await db.query<{ status: string; receipt_reference: string }>(
      'SELECT status, receipt_reference FROM rail_simulator_transfers WHERE transfer_id = $1',
      [payoutId],
    );
    return rows;
  }

  it('pays the payout exactly once when a new worker takes over', async () => {
    const gateway = await startApp('api-gateway', env());
    apps.push(gateway);
    apps.push(await startApp('projector', env()));
    let worker = await startApp('worker', env({ RAIL_SIMULATOR_DELAY_MS: '2000' }));
    apps.push(worker);
    for (const app of apps) await waitFor200(app, '/health/ready');

    const call = client(gateway.url);
    const shop = await merchant(call, '100.00');
    const created = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('killed-1', '10.00'),
    });
    expect(created.status).toBe(201);
    const payoutId = created.body.payout_id as string;
    // What the hosted pages do when the recipient confirms.
    await new PostgresReceivingDetailsVault(db, Buffer.from(encryptionKey, 'base64')).save(
      payoutId,
      DETAILS.paid,
    );
    await commands.execute(new ConfirmPayoutCommand(payoutId, 'bank_transfer'));

    const deadline = Date.now() + 15_000;
    while ((await railRows(payoutId)).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    worker.process.kill('SIGKILL');
    await worker.exited;
    expect(await railRows(payoutId)).toEqual([{ status: 'pending', receipt_reference: expect.any(String) }]);
    const stuck = await call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token });
    expect(stuck.body).toMatchObject({ status: 'processing', receipt_reference: null });

    worker = await startApp('worker', env());
    apps.push(worker);
    const paid = await waitForPayout(call, shop.token, payoutId, (p) => p.status === 'paid', 30_000);
    expect(await railRows(payoutId)).toEqual([{ status: 'paid', receipt_reference: paid.receipt_reference }]);
    const { events } = await new PostgresEventStore(db).readStream(payoutStreamId(payoutId));
    expect(events.filter((e) => e.type === 'PayoutPaid')).toHaveLength(1);
    expect(await assertMoneyInvariants(db, shop.accountId, 'sandbox')).toMatchObject({
      settled: '10.50',
      holds: '0.00',
      available: '89.50',
    });
  }, 120_000);
});
