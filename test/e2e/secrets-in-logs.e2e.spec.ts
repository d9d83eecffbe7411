import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, stop, waitFor200 } from './spawn-app';

/**
 * docs/design.md#invariants (6): tokens and secrets never reach a log line, even at the most
 * verbose level.
 */
describe('the logs', () => {
  it('never contain the operator token, admin tokens, credentials, API secrets or claim-link tokens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payouts-logs-'));
    const operatorToken = `op_${randomBytes(20).toString('hex')}`;
    const app = await startApp('all-in-one', {
      DATA_DIR: dataDir,
      OPERATOR_TOKEN: operatorToken,
      LOG_LEVEL: 'trace',
    });
    const secrets: string[] = [operatorToken];
    try {
      await waitFor200(app, '/health/ready');
      const post = async (path: string, token: string, body: unknown, method = 'POST', key?: string) => {
        const response = await fetch(app.url + path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            ...(key ? { 'idempotency-key': key } : {}),
          },
          body: JSON.stringify(body),
        });
        return (await response.json()) as Record<string, string>;
      };
      const account = await post('/operator/accounts', operatorToken, { name: 'Logs', region: 'US' });
      secrets.push(account.admin_token!);
      await post(`/operator/accounts/${account.account_id}/payouts-approval`, operatorToken, {
        approved: true,
      });
      await post(`/operator/accounts/${account.account_id}/funds`, operatorToken, {
        environment: 'sandbox',
        amount: '50.00',
      });
      await post(
        '/dashboard/payouts-enabled',
        account.admin_token!,
        { environment: 'sandbox', enabled: true },
        'PUT',
      );
      const payoutKey = await post('/dashboard/credentials', account.admin_token!, {
        kind: 'payout',
        environment: 'sandbox',
      });
      const checkoutKey = await post('/dashboard/credentials', account.admin_token!, {
        kind: 'checkout',
        environment: 'sandbox',
      });
      secrets.push(payoutKey.token!, checkoutKey.token!, checkoutKey.secret!);
      const payout = await post(
        '/sandbox/api/payout/create',
        payoutKey.token!,
        {
          amount: '5.00',
          merchant_reference: 'logs-1',
          delivery: 'link',
          customer_email: 'logs@example.com',
        },
        'POST',
        'logs-key-1',
      );
      // The token's secret part follows the payout id; opening the link logs its URL.
      secrets.push(payout.payout_url!.split('/').pop()!.split('.').pop()!);
      await fetch(payout.payout_url!.replace(/^https?:\/\/[^/]+/, app.url), { redirect: 'manual' });
      // A refused request with a bad credential is logged too; its token must not be.
      const wrong = `pk_test_${randomBytes(32).toString('base64url')}`;
      secrets.push(wrong);
      await post('/sandbox/api/payout/balance', wrong, {}, 'POST');
    } finally {
      expect(await stop(app)).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
    const output = app.output();
    expect(output.length).toBeGreaterThan(1000); // trace level really logged the requests
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(20);
      expect(output.includes(secret)).toBe(false);
    }
  });
});
