import { client, merchant, startGateway } from './gateway-harness';

describe('the per-credential rate limit', () => {
  it('answers 429 rate_limited with Retry-After once a credential exceeds its burst, and only that credential', async () => {
    const gateway = await startGateway('pglite', { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '3' });
    try {
      const call = client(gateway.url);
      const busy = await merchant(call);
      const calm = await merchant(call);
      // All four at once: one after another, a slow machine could take past a second and earn
      // the credential a fresh token before the fourth.
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => call('GET', '/sandbox/api/payout/balance', { token: busy.token })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429]);
      const refused = answers.find((a) => a.status === 429)!;
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await call('GET', '/sandbox/api/payout/balance', { token: calm.token })).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
