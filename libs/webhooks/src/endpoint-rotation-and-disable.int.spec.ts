import { randomBytes } from 'node:crypto';
import { AccountsRepository, SecretBox } from '@payouts/accounts';
import type { Environment } from '@payouts/domain';
import { payoutStreamId } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import { testBackends, TestDatabase } from '@payouts/testing';
import { DeliveryScheduler } from './dispatcher/delivery-scheduler';
import { ingestRelayedEvents } from './dispatcher/payout-intake';
import { payoutUpdatedEventId } from './payout-webhook-event';
import { DeliveryQueue } from './store/delivery-queue';
import { WebhookEndpoints } from './store/webhook-endpoints';
import { WebhookEvents } from './store/webhook-events';
import { appendPaidPayouts } from './testing/paid-payouts';
import { eventually, TestReceiver } from './testing/receiver';
import { toRelayedEvent } from './transport/event-transport';
import { parseSignatureHeader, verifyPayoutWebhook, WebhookSignatureError } from './verify';

/** The environment clock the scheduler reads: real time, with a sandbox that can be moved ahead. */
class ManualClock {
  offsetMs = 0;
  now(environment: Environment): Date {
    return new Date(Date.now() + (environment === 'sandbox' ? this.offsetMs : 0));
  }
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Rotating the payout webhook secret with a 24-hour overlap, and disabling an endpoint after 5
 * days of failed attempts (docs/webhooks.md), through the real scheduler and a real receiver, on
 * the sandbox clock.
 */
describe.each(testBackends())('secret rotation and disabled endpoints on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let accounts: AccountsRepository;
  let endpoints: WebhookEndpoints;
  let events: WebhookEvents;
  let queue: DeliveryQueue;
  let receiver: TestReceiver;
  let clock: ManualClock;
  let scheduler: DeliveryScheduler;
  const box = new SecretBox(randomBytes(32));

  const account = async () => (await accounts.createAccount({ name: 'Shop', region: 'US' })).accountId;

  /** A payout.test event, sent, and the request that reached the receiver. */
  const sendTest = async (accountId: string) => {
    const before = receiver.received.length;
    const { eventId } = await events.sendTest(accountId, 'sandbox', clock.now('sandbox'));
    scheduler.wake();
    await receiver.waitForRequests(before + 1);
    await eventually(async () => {
      const entry = await events.get(accountId, eventId);
      return entry?.deliveries[0]?.status !== 'pending' ? true : undefined;
    });
    return receiver.received[before]!;
  };
  const endpoint = async (accountId: string) =>
    (await endpoints.get(accountId, 'sandbox', clock.now('sandbox')))!;
  const mismatch = (raw: string, header: string | undefined, secret: string) => {
    try {
      verifyPayoutWebhook(raw, header, secret);
      return 'verified';
    } catch (error) {
      return (error as WebhookSignatureError).reason;
    }
  };

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    accounts = new AccountsRepository(database.db, randomBytes(32));
    endpoints = new WebhookEndpoints(database.db, box);
    events = new WebhookEvents(database.db);
    queue = new DeliveryQueue(database.db);
    receiver = await TestReceiver.start();
  });
  beforeEach(() => {
    clock = new ManualClock();
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: 'ok' });
    scheduler = new DeliveryScheduler(queue, clock, (id, ciphertext) => box.decrypt(ciphertext, id), {
      pollMs: 20,
      maxInFlight: 10,
      policy: { allowInsecure: true },
      timeoutMs: 2_000,
    });
    scheduler.start();
  });
  afterEach(async () => {
    await scheduler.stop();
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const accountId = await account();
    const saved = await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    const rotatedAt = clock.now('sandbox');
    const rotated = (await endpoints.rotateSecret(accountId, 'sandbox', rotatedAt))!;
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.secret).not.toBe(saved.secret);
    expect(rotated.endpoint.endpointId).toBe(saved.endpoint.endpointId);
    expect(rotated.endpoint.url).toBe(receiver.url());
    expect(Date.parse(rotated.endpoint.previousSecretExpiresAt!)).toBe(rotatedAt.getTime() + DAY);
    // Only the ciphertext is stored, the old one moved as it was.
    const stored = await database.db.query<{ secret_ciphertext: string; previous_secret_ciphertext: string }>(
      'SELECT secret_ciphertext, previous_secret_ciphertext FROM payout_webhook_endpoints WHERE account_id = $1',
      [accountId],
    );
    expect(JSON.stringify(stored.rows)).not.toContain(rotated.secret);
    expect(JSON.stringify(stored.rows)).not.toContain(saved.secret);
    expect(box.decrypt(stored.rows[0]!.previous_secret_ciphertext, saved.endpoint.endpointId)).toBe(
      saved.secret,
    );

    const during = await sendTest(accountId);
    expect(during.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    // A receiver with the old secret and one with the new both accept the same request.
    expect(mismatch(during.rawBody, during.signature, saved.secret)).toBe('verified');
    expect(mismatch(during.rawBody, during.signature, rotated.secret)).toBe('verified');
    expect(mismatch(during.rawBody, during.signature, 'whsec_someone_else')).toBe('signature_mismatch');
    const [first] = parseSignatureHeader(during.signature).signatures;
    const onlyNew = `t=${parseSignatureHeader(during.signature).timestamp},v1=${first}`;
    expect(mismatch(during.rawBody, onlyNew, rotated.secret)).toBe('verified'); // the new secret's is first

    // A minute before the 24 hours are over: still both.
    clock.offsetMs = DAY - 60_000;
    const lastMinute = await sendTest(accountId);
    expect(parseSignatureHeader(lastMinute.signature).signatures).toHaveLength(2);
    expect(mismatch(lastMinute.rawBody, lastMinute.signature, saved.secret)).toBe('verified');

    // 24 hours on: the new one alone.
    clock.offsetMs = DAY;
    const after = await sendTest(accountId);
    expect(after.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(mismatch(after.rawBody, after.signature, rotated.secret)).toBe('verified');
    expect(mismatch(after.rawBody, after.signature, saved.secret)).toBe('signature_mismatch');
    expect((await endpoint(accountId)).previousSecretExpiresAt).toBeNull();

    // And the replaced secret's ciphertext is discarded once its overlap is over.
    expect(await queue.discardExpiredSecrets({ production: new Date(), sandbox: clock.now('sandbox') })).toBe(
      1,
    );
    const gone = await database.db.query<{ previous_secret_ciphertext: string | null }>(
      'SELECT previous_secret_ciphertext FROM payout_webhook_endpoints WHERE account_id = $1',
      [accountId],
    );
    expect(gone.rows[0]!.previous_secret_ciphertext).toBeNull();
  });

  it('keeps only the two newest secrets when rotating again within the overlap, and none after saving', async () => {
    const accountId = await account();
    const saved = await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    const second = (await endpoints.rotateSecret(accountId, 'sandbox', clock.now('sandbox')))!;
    clock.offsetMs = HOUR;
    const third = (await endpoints.rotateSecret(accountId, 'sandbox', clock.now('sandbox')))!;
    const request = await sendTest(accountId);
    expect(mismatch(request.rawBody, request.signature, third.secret)).toBe('verified');
    expect(mismatch(request.rawBody, request.signature, second.secret)).toBe('verified');
    expect(mismatch(request.rawBody, request.signature, saved.secret)).toBe('signature_mismatch');
    // The overlap runs 24 hours from the latest rotation.
    expect(Date.parse((await endpoint(accountId)).previousSecretExpiresAt!)).toBe(
      Date.parse(third.endpoint.secretRotatedAt!) + DAY,
    );

    // Saving the URL again gives a new endpoint and secret: no earlier secret signs.
    const resaved = await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    const afterSave = await sendTest(accountId);
    expect(parseSignatureHeader(afterSave.signature).signatures).toHaveLength(1);
    expect(mismatch(afterSave.rawBody, afterSave.signature, resaved.secret)).toBe('verified');
    expect(await endpoint(accountId)).toMatchObject({ secretRotatedAt: null, previousSecretExpiresAt: null });
  });

  it('refuses to rotate or enable where no endpoint is set', async () => {
    const accountId = await account();
    expect(await endpoints.rotateSecret(accountId, 'sandbox', clock.now('sandbox'))).toBeNull();
    expect(await endpoints.enable(accountId, 'sandbox', clock.now('sandbox'))).toBeNull();
    await endpoints.save(accountId, 'production', receiver.url(), clock.now('production'));
    expect(await endpoints.rotateSecret(accountId, 'sandbox', clock.now('sandbox'))).toBeNull();
  });

  it('disables an endpoint whose every attempt failed for more than 5 days, holds its deliveries, and sends them once enabled', async () => {
    const accountId = await account();
    await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    receiver.answer = () => ({ status: 500, body: 'down' });

    const firstFailure = await sendTest(accountId);
    const started = (await endpoint(accountId)).failingSince!;
    expect(started).not.toBeNull();
    expect(firstFailure).toBeDefined();
    // Exactly 5 days of failures is not yet more than 5 days.
    clock.offsetMs = 5 * DAY - 1_000;
    await sendTest(accountId);
    expect(await endpoint(accountId)).toMatchObject({ failingSince: started, disabledAt: null });

    clock.offsetMs = 5 * DAY + 1_000;
    await sendTest(accountId);
    const disabled = await endpoint(accountId);
    expect(disabled.failingSince).toBe(started);
    expect(disabled.disabledAt).not.toBeNull();
    expect(Date.parse(disabled.disabledAt!)).toBeGreaterThan(Date.parse(started) + 5 * DAY);
    expect(disabled.disabledReason).toContain('every attempt failed for 5 days, since ' + started);
    expect(disabled.disabledReason).toContain('HTTP 500: not a 2xx answer');

    // A payout paid now: its delivery is stored and held, however far the clock moves.
    const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
    const relayed = (await store.readStream(payoutStreamId(payoutId!))).events.map(toRelayedEvent);
    await database.db.transaction((tx) =>
      ingestRelayedEvents(tx, store, relayed, (environment) => clock.now(environment)),
    );
    const eventId = payoutUpdatedEventId(payoutId!);
    const seen = receiver.received.length;
    clock.offsetMs += 2 * DAY;
    scheduler.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(seen);
    const held = (await events.get(accountId, eventId))!.deliveries[0]!;
    expect([held.status, held.attemptsMade]).toEqual(['pending', 0]);
    // A test event is still sent while disabled (one attempt), to check the receiver before enabling.
    await sendTest(accountId);
    expect(receiver.received).toHaveLength(seen + 1);
    expect((await endpoint(accountId)).disabledAt).toBe(disabled.disabledAt);

    // The receiver is mended; one click enables the endpoint and the held delivery goes at once.
    receiver.answer = () => ({ status: 200, body: 'ok' });
    const enabled = (await endpoints.enable(accountId, 'sandbox', clock.now('sandbox')))!;
    expect(enabled).toMatchObject({ wasDisabled: true, rescheduledDeliveries: 1 });
    expect(enabled.endpoint).toMatchObject({ disabledAt: null, disabledReason: null, failingSince: null });
    scheduler.wake();
    await receiver.waitForRequests(seen + 2);
    expect(JSON.parse(receiver.received[seen + 1]!.rawBody).id).toBe(eventId);
    await eventually(async () =>
      (await events.get(accountId, eventId))!.deliveries[0]!.status === 'delivered' ? true : undefined,
    );
    // Enabling again changes nothing.
    expect(await endpoints.enable(accountId, 'sandbox', clock.now('sandbox'))).toMatchObject({
      wasDisabled: false,
      rescheduledDeliveries: 0,
    });
  });

  it('starts counting again after a delivered attempt, and saving again enables', async () => {
    const accountId = await account();
    await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    receiver.answer = () => ({ status: 500, body: 'down' });
    await sendTest(accountId);
    clock.offsetMs = 3 * DAY;
    receiver.answer = () => ({ status: 200, body: 'ok' });
    await sendTest(accountId);
    expect((await endpoint(accountId)).failingSince).toBeNull();

    receiver.answer = () => ({ status: 500, body: 'down' });
    clock.offsetMs = 4 * DAY;
    await sendTest(accountId);
    const restarted = (await endpoint(accountId)).failingSince!;
    // 6 days after the first failure, but only 2 after the run that began after the success.
    clock.offsetMs = 6 * DAY;
    await sendTest(accountId);
    expect(await endpoint(accountId)).toMatchObject({ failingSince: restarted, disabledAt: null });

    clock.offsetMs = 9 * DAY + 1_000;
    await sendTest(accountId);
    expect((await endpoint(accountId)).disabledAt).not.toBeNull();
    await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    expect(await endpoint(accountId)).toMatchObject({ disabledAt: null, failingSince: null });
  });
});
