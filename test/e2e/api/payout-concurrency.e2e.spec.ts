import Big from 'big.js';
import type { SqlClient } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { SQL_CLIENT } from '@payouts/platform';
import { testBackends } from '@payouts/testing';
import { committedEvents } from '../../../libs/event-store/src/testing/stored-events';
import { Call, client, linkBody, merchant, newKey, startGateway } from './gateway-harness';

/** Every part of the balance adds up to the funds credited (docs/design.md#invariants, invariant 1). */
async function expectConserved(call: Call, token: string, funds: string): Promise<void> {
  const balance = (await call('GET', '/sandbox/api/payout/balance', { token })).body;
  expect(balance.available_for_new_commitments).toBe('0.00');
  const accounted = new Big(balance.available_for_new_commitments)
    .plus(balance.customer_payout_holds)
    .plus(balance.customer_payouts_settled)
    .plus(balance.merchant_settlement_holds);
  expect(accounted.toFixed(2)).toBe(funds);
}

describe.each(testBackends().map((b) => b.name))('concurrent creates over HTTP on %s', (backend) => {
  it('lets exactly the covered 100 of 200 concurrent creates succeed, ends at zero available, and conserves money', async () => {
    const gateway = await startGateway(backend, { DEFAULT_MAX_PENDING_PER_CUSTOMER: '1000' });
    try {
      const call = client(gateway.url);
      // 100 payouts of 9.50 + 0.50 fee are exactly covered by 1000.00.
      const shop = await merchant(call, '1000.00');
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          call('POST', '/sandbox/api/payout/create', {
            token: shop.token,
            key: newKey(),
            body: linkBody(`race-${i}`, '9.50'),
          }),
        ),
      );
      const created = answers.filter((a) => a.status === 201);
      expect(created).toHaveLength(100);
      expect(
        new Set(answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.body.error.code}`)),
      ).toEqual(new Set(['409 insufficient_funds']));
      await expectConserved(call, shop.token, '1000.00');
      const listed = await call('GET', '/sandbox/api/payout/list?limit=200', { token: shop.token });
      expect(listed.body.total).toBe(100);
    } finally {
      await gateway.close();
    }
  });

  it('keeps each of many accounts exact under concurrent creates committed in groups, each payout readable at once', async () => {
    const gateway = await startGateway(backend, { DEFAULT_MAX_PENDING_PER_CUSTOMER: '1000' });
    try {
      const call = client(gateway.url);
      // Each account covers exactly 10 payouts of 9.50 + 0.50 fee; each is sent 20 at once.
      const shops = await Promise.all(Array.from({ length: 8 }, () => merchant(call, '100.00')));
      const requests = shops.flatMap((shop, s) =>
        Array.from({ length: 20 }, (_, i) => ({ shop, reference: `shop-${s}-race-${i}` })),
      );
      const answers = await Promise.all(
        requests.map(async ({ shop, reference }) => {
          const answer = await call('POST', '/sandbox/api/payout/create', {
            token: shop.token,
            key: newKey(),
            body: linkBody(reference, '9.50'),
          });
          // Read-your-writes: the payout is there the moment its create has answered.
          const read =
            answer.status === 201
              ? await call('GET', `/sandbox/api/payout/${answer.body.payout_id}`, { token: shop.token })
              : undefined;
          return { shop, reference, answer, read };
        }),
      );

      for (const shop of shops) {
        const own = answers.filter((a) => a.shop === shop);
        expect(own.filter((a) => a.answer.status === 201)).toHaveLength(10);
        expect(
          new Set(
            own
              .filter((a) => a.answer.status !== 201)
              .map((a) => `${a.answer.status} ${a.answer.body.error.code}`),
          ),
        ).toEqual(new Set(['409 insufficient_funds']));
        await expectConserved(call, shop.token, '100.00');
        expect(
          (await call('GET', '/sandbox/api/payout/list?limit=200', { token: shop.token })).body.total,
        ).toBe(10);
      }
      for (const { reference, answer, read } of answers.filter((a) => a.answer.status === 201)) {
        expect(read?.status).toBe(200);
        expect(read?.body.payout_id).toBe(answer.body.payout_id);
        expect(read?.body.merchant_reference).toBe(reference);
        expect(read?.body.amount).toBe('9.50');
      }
      // Group commit happened on the server: fewer transactions wrote the 80 payouts than there are
      // payouts. Embedded PGlite answers each statement on this thread before the next request is
      // read, so creates seldom meet at the append there, and any number of transactions is right.
      const created = (
        await committedEvents(new PostgresEventStore(gateway.app.get<SqlClient>(SQL_CLIENT)))
      ).filter((e) => e.type === 'PayoutCreated');
      expect(created).toHaveLength(80);
      if (backend === 'postgres') expect(new Set(created.map((e) => e.transactionId)).size).toBeLessThan(80);
    } finally {
      await gateway.close();
    }
  });

  it('batches a hot account: of 500 concurrent creates on one account covering exactly 300, 300 are created in fewer appends and 200 refused insufficient_funds', async () => {
    const gateway = await startGateway(backend, { DEFAULT_MAX_PENDING_PER_CUSTOMER: '1000' });
    try {
      const call = client(gateway.url);
      // 300 payouts of 9.50 + 0.50 fee are exactly covered by 3000.00.
      const shop = await merchant(call, '3000.00');
      const answers = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          call('POST', '/sandbox/api/payout/create', {
            token: shop.token,
            key: newKey(),
            body: linkBody(`hot-${i}`, '9.50'),
          }),
        ),
      );
      const created = answers.filter((a) => a.status === 201);
      expect(created).toHaveLength(300);
      expect(new Set(created.map((a) => a.body.payout_id)).size).toBe(300);
      expect(
        new Set(answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.body.error.code}`)),
      ).toEqual(new Set(['409 insufficient_funds']));
      await expectConserved(call, shop.token, '3000.00');
      const listed = await call('GET', '/sandbox/api/payout/list?limit=200', { token: shop.token });
      expect(listed.body.total).toBe(300);
      // Each answered payout is stored as answered, its reservation on the ledger beside it.
      const db = gateway.app.get<SqlClient>(SQL_CLIENT);
      const reserved = (await committedEvents(new PostgresEventStore(db))).filter(
        (e) => e.type === 'PayoutFundsReserved',
      );
      expect(reserved).toHaveLength(300);
      // One ledger, versions gap-free: no reservation was lost or written twice by a batch.
      expect(new Set(reserved.map((e) => e.streamVersion)).size).toBe(300);
      // Batched on the server: the 300 reservations took fewer appends than there are
      // reservations. Embedded PGlite answers each statement on this thread before the next
      // request is read, so creates seldom wait on the ledger together there.
      if (backend === 'postgres')
        expect(new Set(reserved.map((e) => e.transactionId)).size).toBeLessThan(300);
    } finally {
      await gateway.close();
    }
    // 500 creates, a balance check and a list: on the embedded database, on a 2-core machine busy
    // with other suites, this once took more than the default minute.
  }, 180_000);

  it('commits alone a create whose merchant reference another create in its batch claims: one of each pair is created', async () => {
    const gateway = await startGateway(backend, { DEFAULT_MAX_PENDING_PER_CUSTOMER: '1000' });
    try {
      const call = client(gateway.url);
      const shop = await merchant(call, '1000.00');
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          call('POST', '/sandbox/api/payout/create', {
            token: shop.token,
            key: newKey(),
            body: linkBody(`pair-${i % 30}`, '9.50'),
          }),
        ),
      );
      for (let reference = 0; reference < 30; reference += 1) {
        const pair = [answers[reference]!, answers[reference + 30]!];
        expect(pair.map((a) => a.status).sort()).toEqual([201, 409]);
        expect(pair.find((a) => a.status === 409)!.body.error.code).toBe('duplicate_merchant_reference');
      }
      const balance = (await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body;
      expect(balance.customer_payout_holds).toBe('300.00');
      expect(balance.available_for_new_commitments).toBe('700.00');
    } finally {
      await gateway.close();
    }
  });
});
