import { createServerDatabase, testBackends } from '@payouts/testing';
import { merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startWorkerGateway, Storage, WorkerGateway } from '../worker/worker-harness';
import { ledgerEventsOf, ledgerOf } from './funds-harness';

const operator = { token: OPERATOR_TOKEN };

describe.each(testBackends().map((b) => b.name))('settlements run now on %s', (backend) => {
  let gateway: WorkerGateway;
  let drop: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    let storage: Storage = { dataDir: ':memory:' };
    if (backend === 'postgres') {
      const server = await createServerDatabase();
      storage = { databaseUrl: server.url };
      drop = server.drop;
    }
    gateway = await startWorkerGateway(storage);
  });
  afterAll(async () => {
    await gateway.close();
    await drop();
  });

  const runNow = (environment = 'sandbox') =>
    gateway.call('POST', '/operator/settlements/run', { ...operator, body: { environment } });
  const railOutcome = (outcome: string) =>
    gateway.call('PUT', '/operator/settlement-rail/outcome', {
      ...operator,
      body: { environment: 'sandbox', outcome },
    });

  it('settles available − retained target when at least 1.00, and nothing below', async () => {
    const big = await merchant(gateway.call, '100.00');
    const small = await merchant(gateway.call, '10.50');
    for (const [shop, amount] of [
      [big, '25.00'],
      [small, '10.00'],
    ] as const) {
      const set = await gateway.call('PUT', '/dashboard/retained-target', {
        token: shop.adminToken,
        body: { environment: 'sandbox', amount },
      });
      expect(set.status).toBe(200);
    }
    const answer = await runNow();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ environment: 'sandbox', trigger: 'manual' });
    const mine = (answer.body.started as { account_id: string }[]).filter((s) =>
      [big.accountId, small.accountId].includes(s.account_id),
    );
    expect(mine).toEqual([
      {
        settlement_id: expect.stringMatching(/^stl_[0-9a-f]{24}$/),
        account_id: big.accountId,
        currency: 'USD',
        amount: '75.00',
        retained_target: '25.00',
        status: 'paid',
        failure_reason: null,
        created_at: expect.any(String),
      },
    ]);
    const ledger = await ledgerOf(gateway.store, big.accountId);
    expect([
      ledger.available.toFixed(2),
      ledger.settlementsPaid.toFixed(2),
      ledger.merchantSettlementHolds.toFixed(2),
    ]).toEqual(['25.00', '75.00', '0.00']);
    expect((await ledgerEventsOf(gateway.store, small.accountId)).map((e) => e.type)).not.toContain(
      'SettlementStarted',
    );
  });

  it('returns a settlement the rail fails to available, with the rail’s reason', async () => {
    const shop = await merchant(gateway.call, '40.00');
    expect((await railOutcome('failed')).body).toEqual({ environment: 'sandbox', outcome: 'failed' });
    try {
      const answer = await runNow();
      const mine = (answer.body.started as { account_id: string }[]).find(
        (s) => s.account_id === shop.accountId,
      );
      expect(mine).toMatchObject({
        amount: '40.00',
        status: 'failed',
        failure_reason: 'bank_account_closed',
      });
    } finally {
      expect((await railOutcome('paid')).status).toBe(200);
    }
    const ledger = await ledgerOf(gateway.store, shop.accountId);
    expect([ledger.available.toFixed(2), ledger.merchantSettlementHolds.toFixed(2)]).toEqual([
      '40.00',
      '0.00',
    ]);
    expect((await ledgerEventsOf(gateway.store, shop.accountId)).map((e) => e.type)).toEqual(
      expect.arrayContaining(['SettlementStarted', 'SettlementFailed']),
    );
  });

  it('refuses a malformed run or rail setting (400) and callers without the operator token (401)', async () => {
    expect((await runNow('staging')).body.error).toMatchObject({
      code: 'invalid_request',
      param: 'environment',
    });
    expect((await railOutcome('lost')).body.error).toMatchObject({
      code: 'invalid_request',
      param: 'outcome',
    });
    const production = await gateway.call('PUT', '/operator/settlement-rail/outcome', {
      ...operator,
      body: { environment: 'production', outcome: 'failed' },
    });
    expect(production.body.error).toMatchObject({ code: 'invalid_request', param: 'environment' });
    expect(
      (await gateway.call('POST', '/operator/settlements/run', { body: { environment: 'sandbox' } })).status,
    ).toBe(401);
    expect(
      (
        await gateway.call('PUT', '/operator/settlement-rail/outcome', {
          body: { environment: 'sandbox', outcome: 'paid' },
        })
      ).status,
    ).toBe(401);
  });
});
