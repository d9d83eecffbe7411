import { eventually } from '../../../libs/webhooks/src/testing/receiver';
import { Answer, Call, Merchant, merchant, newKey } from '../api/gateway-harness';
import { waitFor200 } from '../spawn-app';
import { EsdbService } from './esdb-service';
import { acceptOnHandoff, RETURN_ORIGIN, redirectBody } from './service-steps';

/**
 * EventStoreDB goes away while every app runs, and comes back (docs/eventstoredb.md): commands
 * are refused with 503 service_unavailable and Retry-After, readiness says the gateway cannot
 * serve, nothing is half-written; once it is back, without restarting an app, the same request
 * with the same Idempotency-Key succeeds and the payout goes on to paid.
 */
describe('an EventStoreDB outage under the running service', () => {
  let service: EsdbService;
  let shop: Merchant;
  let standing: string;
  let balanceBefore: unknown;

  beforeAll(async () => {
    service = await EsdbService.start();
    shop = await merchant(service.call, '100.00', { origins: [RETURN_ORIGIN] });
    const created = await service.call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: redirectBody('esdb-standing', '20.00'),
    });
    expect(created.status).toBe(201);
    standing = created.body.payout_id as string;
  }, 120_000);

  afterAll(async () => {
    const unclean = (await service?.close()) ?? [];
    expect(unclean).toEqual([]);
  }, 60_000);

  const call: Call = (...args) => service.call(...args);
  const balance = async () => (await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body;
  const listed = async (reference: string) =>
    (await call('GET', `/sandbox/api/payout/list?merchant_reference=${reference}`, { token: shop.token }))
      .body;
  const expectRefused = (answer: Answer) => {
    expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({
      status: 503,
      code: 'service_unavailable',
    });
    expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  };

  const createKey = newKey();
  const createRequest = () =>
    call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: createKey,
      body: redirectBody('esdb-outage', '30.00'),
    });

  it('refuses commands with 503 service_unavailable while EventStoreDB is down, and writes nothing', async () => {
    const before = await balance();
    expect(before).toMatchObject({ available_for_new_commitments: '79.50', customer_payout_holds: '20.50' });
    await service.stopStandIn();

    expectRefused(await createRequest());
    expectRefused(
      await call('POST', `/sandbox/api/payout/${standing}/cancel`, { token: shop.token, key: newKey() }),
    );
    const ready = await fetch(`${service.gatewayUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { error: { code: string } }).error.code).toBe('not_ready');

    // The balance checks the ledger's version in EventStoreDB before it answers: unavailable too.
    expectRefused(await call('GET', '/sandbox/api/payout/balance', { token: shop.token }));
    expect(await service.pendingAppends()).toEqual([]);
    balanceBefore = before;
  }, 60_000);

  it('serves again once EventStoreDB is back, without an app restarted: the same create succeeds and is paid', async () => {
    await service.restartStandIn();
    await waitFor200(service.apps.get('api-gateway')!, '/health/ready', 20_000);
    // Nothing of the refused commands was written: no payout, the same balance, the standing payout as it was.
    expect((await listed('esdb-outage')).total).toBe(0);
    expect(await balance()).toEqual(balanceBefore);
    const standingNow = await call('GET', `/sandbox/api/payout/${standing}`, { token: shop.token });
    expect(standingNow.body).toMatchObject({ status: 'awaiting_choice', status_version: 1 });

    const created = await createRequest();
    expect(created.status).toBe(201);
    const payoutId = created.body.payout_id as string;
    expect((await listed('esdb-outage')).data.map((p: { payout_id: string }) => p.payout_id)).toEqual([
      payoutId,
    ]);
    const cancelled = await call('POST', `/sandbox/api/payout/${standing}/cancel`, {
      token: shop.token,
      key: newKey(),
    });
    expect(cancelled.status).toBe(200);
    expect(await balance()).toMatchObject({
      available_for_new_commitments: '69.50',
      customer_payout_holds: '30.50',
    });

    await acceptOnHandoff(service.gatewayUrl, created.body.payout_url as string);
    await eventually(
      async () => {
        const got = await call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token });
        return got.body.status === 'paid' ? got.body : undefined;
      },
      30_000,
      `payout ${payoutId} paid`,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${service.logs(['worker', 'projector'])}`);
    });
    // The worker's append (payout, ledger, float) is visible once decided; its writes follow at once.
    await eventually(
      async () => ((await service.pendingAppends()).length === 0 ? true : undefined),
      5_000,
      'the appends written',
    );
    expect(await service.streamTypes(`payout-${payoutId}`)).toEqual(expect.arrayContaining(['PayoutPaid']));
    // Every app is the one started before the outage.
    expect([...service.apps.values()].every((app) => app.process.exitCode === null)).toBe(true);
  }, 60_000);
});
