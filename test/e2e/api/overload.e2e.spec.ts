import Big from 'big.js';
import { testBackends } from '@payouts/testing';
import { client, linkBody, merchant, newKey, startGateway } from './gateway-harness';

/**
 * A flood of creates past the process's bound on commands in flight (fixed small here so the
 * flood is certain): the excess is refused at once with 503 overloaded and Retry-After, having
 * written nothing, and each refused create completes once when retried with its key.
 */
describe.each(testBackends().map((b) => b.name))('a flood of commands on %s', (backend) => {
  it('refuses the excess with 503 overloaded and Retry-After, loses nothing, and creates each refused payout once on retry', async () => {
    const gateway = await startGateway(backend, {
      DEFAULT_MAX_PENDING_PER_CUSTOMER: '1000',
      COMMANDS_IN_FLIGHT_INITIAL: '1',
      COMMANDS_IN_FLIGHT_MIN: '1',
      COMMANDS_IN_FLIGHT_MAX: '1',
    });
    try {
      const call = client(gateway.url);
      const shop = await merchant(call, '1000.00');
      const requests = Array.from({ length: 60 }, (_, i) => ({
        key: newKey(),
        body: linkBody(`flood-${i}`, '9.50'),
      }));
      const create = (request: (typeof requests)[number]) =>
        call('POST', '/sandbox/api/payout/create', {
          token: shop.token,
          key: request.key,
          body: request.body,
        });
      const first = await Promise.all(requests.map(create));

      const refused = first.filter((answer) => answer.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(answer.body.error.code).toBe('overloaded');
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(answer.headers.get('request-id')).toMatch(/^req_[0-9a-f-]{36}$/);
      }
      expect(first.every((answer) => answer.status === 201 || answer.status === 503)).toBe(true);

      // Nothing of a refused create was written: its key is free and the list holds only the 201s.
      const listed = await call('GET', '/sandbox/api/payout/list?limit=100', { token: shop.token });
      expect(listed.body.total).toBe(60 - refused.length);

      // Each refused create, retried with its own key, is created once; an answered one replays.
      const again = [];
      for (const request of requests) again.push(await create(request));
      expect(again.map((answer) => answer.status)).toEqual(requests.map(() => 201));
      const ids = again.map((answer) => answer.body.payout_id);
      first.forEach((answer, i) => {
        if (answer.status === 201) expect(ids[i]).toBe(answer.body.payout_id);
      });
      expect(new Set(ids).size).toBe(60);
      const balance = (await call('GET', '/sandbox/api/payout/balance', { token: shop.token })).body;
      expect(balance.customer_payout_holds).toBe(new Big('10.00').times(60).toFixed(2));
      expect(
        (await call('GET', '/sandbox/api/payout/list?limit=100', { token: shop.token })).body.total,
      ).toBe(60);
    } finally {
      await gateway.close();
    }
  });
});
