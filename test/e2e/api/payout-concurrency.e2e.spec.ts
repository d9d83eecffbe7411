import Big from 'big.js';
import { testBackends } from '@payouts/testing';
import { client, linkBody, merchant, newKey, startGateway } from './gateway-harness';

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
      const balance = (await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body;
      expect(balance.available_for_new_commitments).toBe('0.00');
      const accounted = new Big(balance.available_for_new_commitments)
        .plus(balance.customer_payout_holds)
        .plus(balance.customer_payouts_settled)
        .plus(balance.merchant_settlement_holds);
      expect(accounted.toFixed(2)).toBe('1000.00');
      const listed = await call('GET', '/sandbox/api/payout/list?limit=200', { token: shop.token });
      expect(listed.body.total).toBe(100);
    } finally {
      await gateway.close();
    }
  });
});
