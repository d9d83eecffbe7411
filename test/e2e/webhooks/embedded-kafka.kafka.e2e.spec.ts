import { randomUUID } from 'node:crypto';
import { verifyPayoutWebhook } from '@payouts/webhooks';
import { checkpointedSubscriptions } from '../../../libs/event-store/src/testing/subscription-checkpoints';
import { payExistingPayout } from '../../../libs/webhooks/src/testing/paid-payouts';
import { eventually, TestReceiver } from '../../../libs/webhooks/src/testing/receiver';
import { merchantWithPayout, startWebhookGateway, WebhookGateway } from './webhook-harness';

/**
 * The embedded start with KAFKA_BROKERS set (issue 5 section 6): every app's modules in one process,
 * on PGlite, now relaying through Kafka instead of the in-process transport.
 */
describe('the embedded start with KAFKA_BROKERS', () => {
  let gateway: WebhookGateway;
  let receiver: TestReceiver;

  beforeAll(async () => {
    receiver = await TestReceiver.start();
    gateway = await startWebhookGateway({
      env: {
        KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '',
        KAFKA_TOPIC_PREFIX: `embedded-${randomUUID().slice(0, 8)}.`,
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await receiver?.close();
  });

  it('delivers a paid payout’s webhook through Kafka, with the Kafka relay’s checkpoint and no in-process one', async () => {
    const shop = await merchantWithPayout(gateway.call, 'order-embedded-kafka');
    const saved = await gateway.call('PUT', '/dashboard/payout-webhook', {
      token: shop.adminToken,
      body: { environment: 'sandbox', url: receiver.url() },
    });
    await payExistingPayout(gateway.store, shop.payoutId);
    await receiver.waitForRequests(1, 60_000);
    verifyPayoutWebhook(receiver.received[0]!.rawBody, receiver.received[0]!.signature, saved.body.secret);
    expect(JSON.parse(receiver.received[0]!.rawBody).data.payout_id).toBe(shop.payoutId);
    const checkpoints = await eventually(async () => {
      const subscriptions = await checkpointedSubscriptions(gateway.db);
      return subscriptions.includes('kafka-relay') ? subscriptions : undefined;
    });
    expect(checkpoints).not.toContain('in-process-relay');
  }, 120_000);
});
