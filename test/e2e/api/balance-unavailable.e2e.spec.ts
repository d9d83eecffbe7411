import { FundsCredited, LEDGER_STREAM_TYPE, ledgerStreamId } from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE } from '@payouts/platform';
import { ReadModelProjector } from '../../../apps/projector/src/read-model-projector';
import { client, linkBody, merchant, newKey } from './gateway-harness';
import { startTestingGateway, TestingGateway } from './testing-gateway';

/**
 * When the balance read model trails the ledger beyond its bound (here: the projector is stopped
 * and 150 credits are appended without it), Get Payout Balance answers the unavailable shape and
 * Create Payout refuses with 409 balance_unavailable, writing nothing.
 */
describe('a balance that cannot be calculated', () => {
  let gateway: TestingGateway;

  beforeAll(async () => {
    gateway = await startTestingGateway();
  });
  afterAll(() => gateway.close());

  it('answers {currency, available: null, reason} and makes Create answer 409 balance_unavailable', async () => {
    const call = client(gateway.url);
    const shop = await merchant(call, '100.00');
    await gateway.app.get(ReadModelProjector).onModuleDestroy();

    const store = gateway.app.get<EventStore>(EVENT_STORE);
    const streamId = ledgerStreamId(shop.accountId, 'sandbox');
    const { version } = await store.readStream(streamId);
    const credits: FundsCredited[] = Array.from({ length: 150 }, (_, i) => ({
      type: 'FundsCredited',
      data: {
        accountId: shop.accountId,
        environment: 'sandbox',
        amount: '1.00',
        reference: `late-${i}`,
        reason: 'late credit',
        at: new Date().toISOString(),
      },
    }));
    // Appended without the inline projection: only the (stopped) projector would bring the balance up to date.
    await store.append([
      {
        streamId,
        streamType: LEDGER_STREAM_TYPE,
        expectedVersion: version,
        events: credits.map((event) => ({ type: event.type, schemaVersion: 1, data: event.data })),
      },
    ]);

    const balance = await call('GET', '/sandbox/api/payout/balance', { token: shop.token });
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({ currency: 'USD', available: null, reason: expect.any(String) });

    const refused = await call('POST', '/sandbox/api/payout/create', {
      token: shop.token,
      key: newKey(),
      body: linkBody('lagging'),
    });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'balance_unavailable']);
    const listed = await call('GET', '/sandbox/api/payout/list?merchant_reference=lagging', {
      token: shop.token,
    });
    expect(listed.body.total).toBe(0);
  });
});
