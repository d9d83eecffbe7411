import { ledgerStreamId } from '@payouts/domain';
import { assertMoneyInvariants } from '@payouts/testing';
import { eventually } from '../../../libs/webhooks/src/testing/receiver';
import { Call, Merchant, merchant, newKey } from '../api/gateway-harness';
import { expectCleanVerify, runAudit } from '../audit/audit-process';
import { EsdbService } from './esdb-service';
import { chainCaughtUp, RETURN_ORIGIN, redirectBody } from './service-steps';

/**
 * A gateway killed between the writes of one multi-stream append (docs/eventstoredb.md): creating
 * a payout writes the ledger's reservation first, then the payout's stream, then the merchant
 * reference's. The stand-in holds the payout stream's append until the gateway is SIGKILLed, so
 * the ledger is written and the rest is only decided (eventstoredb_pending_appends). The apps'
 * recovery then writes it: nothing decided is lost, and the books stay balanced.
 */
describe('a gateway killed between the writes of a payout', () => {
  let service: EsdbService;
  let shop: Merchant;

  beforeAll(async () => {
    service = await EsdbService.start();
    shop = await merchant(service.call, '100.00', { origins: [RETURN_ORIGIN] });
  }, 120_000);

  afterAll(async () => {
    const unclean = (await service?.close()) ?? [];
    expect(unclean).toEqual([]);
  }, 60_000);

  const call: Call = (...args) => service.call(...args);
  const key = newKey();
  const create = () =>
    call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key,
      body: redirectBody('esdb-killed', '10.00'),
    });
  let payoutStream: string;

  it('leaves the reservation on the ledger and the payout decided, not written', async () => {
    const hold = service.standIn.holdAppends((name) => name.startsWith('payout-'));
    try {
      // The gateway never answers: it dies while its payout stream append is held.
      const lost = create().then(
        () => 'answered',
        () => 'connection lost',
      );
      await eventually(() => (hold.waiting >= 1 ? true : undefined), 10_000, 'the payout append held');
      await service.kill('api-gateway');
      expect(await lost).toBe('connection lost');

      // What the dead gateway left, while the hold still keeps any recovery from writing the rest.
      const pending = await service.pendingAppends();
      payoutStream = pending.find((row) => row.stream_id.startsWith('payout-'))?.stream_id ?? '';
      // The whole decision stays recorded until every stream of it is written, the ledger's too.
      expect(pending.map((row) => row.stream_id)).toEqual([
        ledgerStreamId(shop.accountId, 'sandbox'),
        payoutStream,
        `merchant-reference-${shop.accountId}-sandbox-esdb-killed`,
      ]);
      expect(payoutStream).toMatch(/^payout-po_[0-9a-f]{24}$/);
      expect(await service.streamTypes(payoutStream)).toEqual([]);
      const ledger = await service.streamEvents(ledgerStreamId(shop.accountId, 'sandbox'));
      expect(ledger.at(-1)).toMatchObject({
        type: 'PayoutFundsReserved',
        data: { payoutId: payoutStream.slice('payout-'.length) },
      });
    } finally {
      hold.release();
    }
  }, 60_000);

  it('writes the rest within seconds: the payout exists, the books balance, the audit finds nothing', async () => {
    const payoutId = payoutStream.slice('payout-'.length);
    // The projector, worker and dispatcher recover too; a new gateway is needed for the API anyway.
    await service.startApp('api-gateway');
    await eventually(
      async () => ((await service.pendingAppends()).length === 0 ? true : undefined),
      10_000,
      'the pending appends written',
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${service.logs()}`);
    });
    expect(await service.streamTypes(payoutStream)).toEqual(['PayoutCreated', 'RedirectSessionStarted']);
    expect(await service.streamTypes(`merchant-reference-${shop.accountId}-sandbox-esdb-killed`)).toEqual([
      'MerchantReferenceClaimed',
    ]);

    const got = await call('GET', `/sandbox/api/payout/${payoutId}`, { token: shop.token });
    expect(got.body).toMatchObject({
      payout_id: payoutId,
      status: 'awaiting_choice',
      total_reserved: '10.50',
    });
    const listed = await call('GET', '/sandbox/api/payout/list?merchant_reference=esdb-killed', {
      token: shop.token,
    });
    expect(listed.body.data.map((p: { payout_id: string }) => p.payout_id)).toEqual([payoutId]);
    // The create that never got its answer, sent again with its key: the same payout, not a second one.
    const again = await create();
    expect({ status: again.status, payoutId: again.body.payout_id }).toEqual({ status: 201, payoutId });
    const balance = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    expect(balance.body).toMatchObject({
      available_for_new_commitments: '89.50',
      customer_payout_holds: '10.50',
    });
    await assertMoneyInvariants(service.db, shop.accountId, 'sandbox');

    await chainCaughtUp(service);
    expectCleanVerify(await runAudit(['verify'], service.env));
  }, 60_000);
});
