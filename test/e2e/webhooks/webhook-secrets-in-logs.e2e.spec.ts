import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteSqlClient } from '@payouts/database';
import { TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { client, merchant, OPERATOR_TOKEN } from '../api/gateway-harness';
import { startApp, stop, waitFor200 } from '../spawn-app';

/** Invariant 6 for webhooks: the signing secret never reaches a log line, even at trace level. */
describe('the logs of the embedded start with payout webhooks', () => {
  it('never contain the webhook signing secret, nor its ciphertext', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payouts-webhook-logs-'));
    const receiver = await TestReceiver.start();
    const app = await startApp('all-in-one', {
      DATA_DIR: dataDir,
      OPERATOR_TOKEN,
      LOG_LEVEL: 'trace',
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      WEBHOOK_POLL_MS: '20',
    });
    try {
      await waitFor200(app, '/health/ready');
      const call = client(app.url);
      const shop = await merchant(call, '0.00');
      const saved = await call('PUT', '/dashboard/payout-webhook', {
        token: shop.adminToken,
        body: { environment: 'sandbox', url: receiver.url() },
      });
      expect(saved.status).toBe(200);
      // A refused URL, a test event and a resend: every path that touches the secret.
      await call('PUT', '/dashboard/payout-webhook', {
        token: shop.adminToken,
        body: { environment: 'production', url: 'https://10.0.0.1/' },
      });
      const sent = await call('POST', '/dashboard/payout-webhook/test', {
        token: shop.adminToken,
        body: { environment: 'sandbox' },
      });
      await receiver.waitForRequests(1);
      await call('POST', `/dashboard/payout-webhook/events/${sent.body.event_id}/resend`, {
        token: shop.adminToken,
      });
      await receiver.waitForRequests(2);
      const secret = saved.body.secret as string;
      expect(secret).toMatch(/^whsec_/);
      await stop(app);
      const output = app.output();
      expect(output).toContain('payout-webhook');
      expect(output).not.toContain(secret);
      expect(output).not.toContain(secret.slice('whsec_'.length));
      expect(output).not.toMatch(/whsec_[A-Za-z0-9_-]{10}/);
      const db = await PgliteSqlClient.open(join(dataDir, 'pglite'));
      try {
        const { rows } = await db.query<{ secret_ciphertext: string }>(
          'SELECT secret_ciphertext FROM payout_webhook_endpoints',
        );
        expect(rows).toHaveLength(1);
        expect(output).not.toContain(rows[0]!.secret_ciphertext.split('.')[3]!);
      } finally {
        await db.close();
      }
    } finally {
      await stop(app);
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
