import { randomBytes } from 'node:crypto';
import { AccountsRepository, SecretBox } from '@payouts/accounts';
import type { Environment } from '@payouts/domain';
import { payoutStreamId } from '@payouts/domain';
import { PostgresEventStore, RecordedEvent } from '@payouts/event-store';
import type { SqlClient, SqlQueryable } from '@payouts/database';
import { testBackends, TestDatabase } from '@payouts/testing';
import { AttemptObserver, DeliveryScheduler } from './dispatcher/delivery-scheduler';
import { ingestRelayedEvents } from './dispatcher/payout-intake';
import { payoutUpdatedEventId } from './payout-webhook-event';
import { DeliveryQueue } from './store/delivery-queue';
import { WebhookEndpoints } from './store/webhook-endpoints';
import { WebhookEvents } from './store/webhook-events';
import { appendPaidPayouts, appendUnpaidPayout } from './testing/paid-payouts';
import { eventually, TestReceiver } from './testing/receiver';
import { toRelayedEvent } from './transport/event-transport';
import { verifyPayoutWebhook } from './verify';

/** The environment clock the scheduler reads: real time, with a sandbox that can be moved ahead. */
class ManualClock {
  offsetMs = 0;
  now(environment: Environment): Date {
    return new Date(Date.now() + (environment === 'sandbox' ? this.offsetMs : 0));
  }
}

describe.each(testBackends())('webhook intake and delivery on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let accounts: AccountsRepository;
  let endpoints: WebhookEndpoints;
  let events: WebhookEvents;
  let queue: DeliveryQueue;
  let receiver: TestReceiver;
  let clock: ManualClock;
  const box = new SecretBox(randomBytes(32));
  const schedulers: DeliveryScheduler[] = [];

  const scheduler = (options: { maxInFlight?: number; observer?: AttemptObserver } = {}) => {
    const started = new DeliveryScheduler(queue, clock, (id, ciphertext) => box.decrypt(ciphertext, id), {
      pollMs: 20,
      maxInFlight: options.maxInFlight ?? 50,
      policy: { allowInsecure: true },
      timeoutMs: 2_000,
      observer: options.observer,
    });
    started.start();
    schedulers.push(started);
    return started;
  };

  /** Everything of these payouts in the feed, handed to the intake as the transport would. */
  const ingest = async (payoutIds: string[]) => {
    const relayed: RecordedEvent[] = [];
    for (const id of payoutIds) relayed.push(...(await store.readStream(payoutStreamId(id))).events);
    return database.db.transaction((tx) =>
      ingestRelayedEvents(tx, store, relayed.map(toRelayedEvent), (env) => clock.now(env)),
    );
  };

  const account = async () => (await accounts.createAccount({ name: 'Shop', region: 'US' })).accountId;

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
  });
  afterEach(async () => {
    await Promise.all(schedulers.splice(0).map((s) => s.stop()));
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });

  it('makes exactly one payout.updated event of a paid payout, however often its PayoutPaid arrives', async () => {
    const accountId = await account();
    const { secret } = await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
    const first = await ingest([payoutId!]);
    expect(first).toHaveLength(1);
    // Seen again (a relay or consumer restarted mid-batch), also twice in one batch: nothing new.
    expect(await ingest([payoutId!])).toEqual([]);
    expect(await ingest([payoutId!, payoutId!])).toEqual([]);

    const log = await events.list(accountId, 'sandbox', { payoutId });
    expect(log.total).toBe(1);
    const [event] = log.data;
    expect(event!.eventId).toBe(payoutUpdatedEventId(payoutId!));
    expect(event!.deliveries).toHaveLength(1);
    const body = JSON.parse(event!.body);
    expect(Object.keys(body)).toEqual(['type', 'id', 'data']);
    expect(body).toMatchObject({ type: 'payout.updated', id: event!.eventId });
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'payout_id',
        'merchant_reference',
        'customer_id',
        'status',
        'status_version',
        'amount',
        'fee',
        'total_reserved',
        'currency',
        'delivery',
        'funds_released',
        'receipt_reference',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(body.data).toMatchObject({
      payout_id: payoutId,
      status: 'paid',
      status_version: 3,
      amount: '10.00',
    });

    scheduler();
    await receiver.waitForRequests(1);
    const [request] = receiver.received;
    expect(request!.rawBody).toBe(event!.body);
    expect(verifyPayoutWebhook(request!.rawBody, request!.signature, secret)).toBeDefined();
    await eventually(async () => {
      const entry = await events.get(accountId, event!.eventId);
      return entry?.deliveries[0]?.status === 'delivered' ? entry : undefined;
    });
  });

  it.each(['cancelled', 'expired', 'failed', 'review_required', 'processing'] as const)(
    'makes no event for a payout that is %s',
    async (ending) => {
      const accountId = await account();
      await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
      const payoutId = await appendUnpaidPayout(store, accountId, 'sandbox', ending);
      expect(await ingest([payoutId])).toEqual([]);
      expect((await events.list(accountId, 'sandbox')).total).toBe(0);
    },
  );

  it('keeps the event of an account without an endpoint and schedules nothing', async () => {
    const accountId = await account();
    const [payoutId] = await appendPaidPayouts(store, accountId, 'production', 1);
    expect(await ingest([payoutId!])).toEqual([]);
    const log = await events.list(accountId, 'production');
    expect(log.data.map((e) => [e.payoutId, e.deliveries.length])).toEqual([[payoutId, 0]]);
  });

  // Two connections are needed to commit between the two reads; PGlite has one.
  if (backend.name === 'postgres') {
    it('shows a delivery and its attempts from one snapshot, even when an attempt commits between the two reads', async () => {
      const accountId = await account();
      await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
      receiver.answer = () => ({ status: 500, body: 'down' });
      const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
      await ingest([payoutId!]);
      const running = scheduler();
      const eventId = payoutUpdatedEventId(payoutId!);
      await eventually(async () =>
        (await events.get(accountId, eventId))?.deliveries[0]?.attemptsMade === 1 ? true : undefined,
      );
      await running.stop();

      // Another writer records attempt 2 (as the dispatcher does: attempt and delivery in one
      // statement) after the deliveries were read and before the attempts are.
      const deliveryId = (await events.get(accountId, eventId))!.deliveries[0]!.deliveryId;
      const secondAttempt = () =>
        database.db.query(
          `WITH attempt AS (
             INSERT INTO webhook_attempts (delivery_id, attempt_number, event_id, endpoint_id, url, attempted_at,
                                           signature_timestamp, status_code, latency_ms, delivered, error, response_body)
             SELECT delivery_id, 2, event_id, endpoint_id, url, attempted_at, signature_timestamp, status_code,
                    latency_ms, delivered, error, response_body
               FROM webhook_attempts WHERE delivery_id = $1 AND attempt_number = 1)
           UPDATE webhook_deliveries SET attempts_made = 2 WHERE delivery_id = $1`,
          [deliveryId],
        );
      const shown = await new WebhookEvents(committingBetweenReads(database.db, secondAttempt)).get(
        accountId,
        eventId,
      );
      const delivery = shown!.deliveries[0]!;
      expect(delivery.attempts).toHaveLength(delivery.attemptsMade);
      // And the write did land: a fresh read shows both.
      const after = (await events.get(accountId, eventId))!.deliveries[0]!;
      expect([after.attemptsMade, after.attempts.length]).toEqual([2, 2]);
      // Nothing of this test may reach the shared receiver from a later test's scheduler.
      await endpoints.remove(accountId, 'sandbox', clock.now('sandbox'));
    });
  }

  it('retries a failing receiver 30 s, 5 min, 1 h and 23 h later on the sandbox clock, then stops', async () => {
    const accountId = await account();
    const { secret } = await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    receiver.answer = () => ({ status: 500, body: 'down for maintenance' });
    const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
    await ingest([payoutId!]);
    // What the app's metrics are told of each attempt (webhook_attempts_total).
    const told: string[] = [];
    const running = scheduler({
      observer: { attempted: (kind, outcome) => told.push(`${kind} ${outcome}`) },
    });
    const eventId = payoutUpdatedEventId(payoutId!);
    const delivery = async () => (await events.get(accountId, eventId))!.deliveries[0]!;

    await receiver.waitForRequests(1);
    const delays = [30, 300, 3_600, 82_800];
    for (const [index, seconds] of delays.entries()) {
      const made = index + 1;
      await eventually(async () => ((await delivery()).attemptsMade === made ? true : undefined));
      // One second short of the delay: not due yet, however often the scheduler looks.
      clock.offsetMs += (seconds - 1) * 1000;
      running.wake();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(receiver.received).toHaveLength(made);
      clock.offsetMs += 1000;
      running.wake();
      await receiver.waitForRequests(made + 1);
    }
    const final = await eventually(async () => {
      const d = await delivery();
      return d.status === 'failed' ? d : undefined;
    });
    expect(final.attempts.map((a) => [a.attemptNumber, a.statusCode, a.delivered, a.error])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [n, 500, false, 'HTTP 500: not a 2xx answer']),
    );
    expect(final.attempts.every((a) => a.responseBody === 'down for maintenance')).toBe(true);
    expect(final.nextAttemptAt).toBeNull();
    expect(told).toEqual([...Array<string>(4).fill('payout failed'), 'payout exhausted']);
    // Every attempt: the same body and id, a valid signature of its own time.
    expect(new Set(receiver.received.map((r) => r.rawBody)).size).toBe(1);
    const signedAt = receiver.received.map(
      (request) => verifyPayoutWebhook(request.rawBody, request.signature, secret).timestamp,
    );
    expect(final.attempts.map((a) => a.signatureTimestamp)).toEqual(signedAt);
    // After the fifth, nothing more, however far the clock moves.
    clock.offsetMs += 100 * 3_600_000;
    running.wake();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.received).toHaveLength(5);
  });

  it('lets several dispatchers share the work without making any attempt twice', async () => {
    const accountId = await account();
    await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    const payoutIds = await appendPaidPayouts(store, accountId, 'sandbox', 120);
    await ingest(payoutIds);
    scheduler({ maxInFlight: 7 });
    scheduler({ maxInFlight: 7 });
    scheduler({ maxInFlight: 7 });
    await receiver.waitForRequests(120);
    await eventually(async () => {
      const { rows } = await database.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1 AND status = 'delivered'`,
        [accountId],
      );
      return rows[0]!.n === 120 ? true : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ids = receiver.received.map((r) => JSON.parse(r.rawBody).id as string);
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
  });

  it('does not hand a leased delivery to anyone else until its lease runs out (a dead dispatcher)', async () => {
    const accountId = await account();
    await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
    await ingest([payoutId!]);
    const now = { production: clock.now('production'), sandbox: clock.now('sandbox') };
    const first = await queue.claim({ now, limit: 10, leaseMs: 300 });
    expect(first.map((d) => d.eventId)).toEqual([payoutUpdatedEventId(payoutId!)]);
    expect(await queue.claim({ now, limit: 10, leaseMs: 300 })).toEqual([]);
    // Its dispatcher never records the attempt: once the lease has run out, another takes it.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const again = await queue.claim({ now, limit: 10, leaseMs: 300 });
    expect(again.map((d) => d.deliveryId)).toEqual(first.map((d) => d.deliveryId));
    expect(again[0]!.leaseToken).not.toBe(first[0]!.leaseToken);
    // The first holder's late result no longer moves the delivery on.
    await queue.record([
      {
        delivery: first[0]!,
        attempt: null,
        status: 'cancelled',
        nextAttemptAt: null,
        finishedAt: new Date(),
      },
    ]);
    const { rows } = await database.db.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE delivery_id = $1',
      [first[0]!.deliveryId],
    );
    expect(rows[0]!.status).toBe('pending');
    // The current holder's result does (and leaves nothing due for the tests after this one).
    await queue.record([
      {
        delivery: again[0]!,
        attempt: null,
        status: 'cancelled',
        nextAttemptAt: null,
        finishedAt: new Date(),
      },
    ]);
    const after = await database.db.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE delivery_id = $1',
      [first[0]!.deliveryId],
    );
    expect(after.rows[0]!.status).toBe('cancelled');
  });

  it('drops what is pending when the endpoint is removed, and sends nothing more', async () => {
    const accountId = await account();
    await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    receiver.answer = () => ({ status: 503 });
    const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
    await ingest([payoutId!]);
    const running = scheduler();
    await receiver.waitForRequests(1);
    const eventId = payoutUpdatedEventId(payoutId!);
    await eventually(async () =>
      (await events.get(accountId, eventId))!.deliveries[0]!.attemptsMade === 1 ? 1 : undefined,
    );
    expect(await endpoints.remove(accountId, 'sandbox', clock.now('sandbox'))).toEqual({
      removed: true,
      droppedDeliveries: 1,
    });
    expect(await endpoints.get(accountId, 'sandbox', clock.now('sandbox'))).toBeNull();
    const { rows } = await database.db.query('SELECT 1 FROM payout_webhook_endpoints WHERE account_id = $1', [
      accountId,
    ]);
    expect(rows).toEqual([]);
    clock.offsetMs += 3_600_000;
    running.wake();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.received).toHaveLength(1);
    expect((await events.get(accountId, eventId))!.deliveries[0]!.status).toBe('cancelled');
    expect(await endpoints.remove(accountId, 'sandbox', clock.now('sandbox'))).toEqual({
      removed: false,
      droppedDeliveries: 0,
    });
  });

  it('checks the target again at delivery time and makes no connection to a blocked one', async () => {
    const accountId = await account();
    // As if the URL had passed when saved and the address had changed since.
    await endpoints.save(accountId, 'sandbox', `http://10.0.0.1:${receiver.port}/hook`, clock.now('sandbox'));
    const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
    await ingest([payoutId!]);
    scheduler();
    const attempt = await eventually(async () => {
      const entry = await events.get(accountId, payoutUpdatedEventId(payoutId!));
      return entry?.deliveries[0]?.attempts[0];
    });
    expect(attempt).toMatchObject({
      statusCode: null,
      delivered: false,
      signatureTimestamp: null,
      error: 'target refused (blocked_address): 10.0.0.1 is not a public address: 10.0.0.0/8 (private)',
    });
  });

  it('logs an attempt whose secret cannot be decrypted (another ENCRYPTION_KEY) without sending it', async () => {
    const accountId = await account();
    const other = new WebhookEndpoints(database.db, new SecretBox(randomBytes(32)));
    await other.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    const [payoutId] = await appendPaidPayouts(store, accountId, 'sandbox', 1);
    await ingest([payoutId!]);
    scheduler();
    const attempt = await eventually(async () => {
      const entry = await events.get(accountId, payoutUpdatedEventId(payoutId!));
      return entry?.deliveries[0]?.attempts[0];
    });
    expect(attempt.error).toMatch(/^not sent: secret ciphertext does not decrypt/);
    expect(receiver.received).toHaveLength(0);
  });

  it('sends a test event and a manual resend once each, and refuses them without an endpoint', async () => {
    const accountId = await account();
    await expect(events.sendTest(accountId, 'sandbox', clock.now('sandbox'))).rejects.toThrow(
      'no payout webhook endpoint is set for this environment',
    );
    const { secret } = await endpoints.save(accountId, 'sandbox', receiver.url(), clock.now('sandbox'));
    receiver.answer = () => ({ status: 500 });
    const test = await events.sendTest(accountId, 'sandbox', clock.now('sandbox'));
    expect(test.eventId).toMatch(/^evt_test_[0-9a-f]{32}$/);
    const running = scheduler();
    await receiver.waitForRequests(1);
    const failed = await eventually(async () => {
      const d = (await events.get(accountId, test.eventId))!.deliveries[0]!;
      return d.status === 'failed' ? d : undefined;
    });
    expect(failed).toMatchObject({ trigger: 'test', attemptsMade: 1, maxAttempts: 1 });

    receiver.answer = () => ({ status: 200 });
    await events.resend(accountId, test.eventId, (env) => clock.now(env));
    await expect(events.resend(accountId, test.eventId, (env) => clock.now(env))).rejects.toThrow(
      'a resend of this event is still waiting to be sent',
    );
    running.wake();
    await receiver.waitForRequests(2);
    expect(receiver.received[1]!.rawBody).toBe(receiver.received[0]!.rawBody);
    verifyPayoutWebhook(receiver.received[1]!.rawBody, receiver.received[1]!.signature, secret);
    expect(await events.resend(accountId, 'evt_test_unknown', (env) => clock.now(env))).toBeNull();
    expect(await events.resend(await account(), test.eventId, (env) => clock.now(env))).toBeNull();
  });
});

/**
 * `db`, but `between` runs and commits on another connection once the deliveries of an event-log
 * read are answered and before its attempts are read.
 */
function committingBetweenReads(db: SqlClient, between: () => Promise<unknown>): SqlClient {
  let deliveriesRead: Promise<unknown> = Promise.resolve();
  const wrap = (inner: SqlQueryable): SqlQueryable => ({
    query: async <Row>(sql: string, params?: readonly unknown[]) => {
      if (sql.includes('FROM webhook_deliveries WHERE event_id')) {
        const read = inner.query<Row>(sql, params);
        deliveriesRead = read;
        return read;
      }
      if (sql.includes('FROM webhook_attempts WHERE event_id')) {
        await deliveriesRead;
        await between();
      }
      return inner.query<Row>(sql, params);
    },
    queryPrepared: <Row>(sql: string, params?: readonly unknown[]) => inner.queryPrepared<Row>(sql, params),
  });
  return {
    ...wrap(db),
    kind: db.kind,
    reads: wrap(db.reads),
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}
