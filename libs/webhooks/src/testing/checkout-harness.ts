import { randomBytes } from 'node:crypto';
import { AccountsRepository } from '@payouts/accounts';
import type { Environment } from '@payouts/domain';
import { PostgresEventStore } from '@payouts/event-store';
import type { TestBackend, TestDatabase } from '@payouts/testing';
import { DeliveryScheduler } from '../dispatcher/delivery-scheduler';
import {
  DISPATCHER_EVENT_TYPES,
  DISPATCHER_GROUP_ID,
  DISPATCHER_STREAM_TYPES,
  ingestRelayedEvents,
} from '../dispatcher/payout-intake';
import { DeliveryQueue } from '../store/delivery-queue';
import { startRelay } from '../transport/event-relay';
import { InProcessTransport } from '../transport/in-process-transport';
import { appendCreatedOrder, newTestOrderId, payCreatedOrder, TestOrder } from './paid-orders';
import { TestReceiver } from './receiver';

/**
 * Test support for checkout webhooks on a real database: the event store, the relay into the
 * dispatcher's intake (registered as the dispatcher registers it), schedulers with the accounts'
 * checkout secrets, and receivers of each test's own. Call inside a describe block: it registers
 * the hooks that open and close everything.
 */

/** The environment clock the scheduler reads: real time, with a sandbox that can be moved ahead. */
export class ManualClock {
  offsetMs = 0;
  now(environment: Environment): Date {
    return new Date(Date.now() + (environment === 'sandbox' ? this.offsetMs : 0));
  }
}

export interface DeliveryRow {
  status: string;
  attempts_made: number;
  max_attempts: number;
  next_attempt_at: Date | null;
}

export interface AttemptRow {
  attempt_number: number;
  endpoint_id: string | null;
  url: string;
  status_code: number | null;
  delivered: boolean;
  error: string | null;
  signature_timestamp: string | null;
}

export interface CheckoutHarness {
  readonly database: TestDatabase;
  readonly store: PostgresEventStore;
  readonly accounts: AccountsRepository;
  readonly clock: ManualClock;
  /** Runs the real relay (durable checkpoint) into the dispatcher's intake until it has caught up. */
  relay(): Promise<void>;
  scheduler(): DeliveryScheduler;
  receiver(): Promise<TestReceiver>;
  /** A new account with a checkout credential in `environment`: the orders' signer. */
  merchant(environment: Environment): Promise<{ accountId: string; credentialId: string; secret: string }>;
  /** Appends a new order (OrderCreated) and, unless told otherwise, pays it (OrderPaid). */
  order(order: Omit<TestOrder, 'orderId'>, options?: { pay?: boolean }): Promise<number>;
  deliveryOf(orderId: number): Promise<DeliveryRow[]>;
  attemptsOf(orderId: number): Promise<AttemptRow[]>;
}

export function useCheckoutHarness(backend: TestBackend): CheckoutHarness {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let accounts: AccountsRepository;
  let queue: DeliveryQueue;
  let transport: InProcessTransport;
  let clock = new ManualClock();
  const receivers: TestReceiver[] = [];
  const schedulers: DeliveryScheduler[] = [];

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    accounts = new AccountsRepository(database.db, randomBytes(32));
    queue = new DeliveryQueue(database.db);
    transport = new InProcessTransport();
    await transport.consume({
      groupId: DISPATCHER_GROUP_ID,
      streamTypes: DISPATCHER_STREAM_TYPES,
      eventTypes: DISPATCHER_EVENT_TYPES,
      handler: async (events, tx) => {
        await ingestRelayedEvents(tx, store, events, (environment) => clock.now(environment));
      },
    });
  });
  beforeEach(() => {
    clock = new ManualClock();
  });
  afterEach(async () => {
    await Promise.all(schedulers.splice(0).map((s) => s.stop()));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(async () => {
    await transport.close();
    await store.close();
    await database.drop();
  });

  return {
    get database() {
      return database;
    },
    get store() {
      return store;
    },
    get accounts() {
      return accounts;
    },
    get clock() {
      return clock;
    },
    async relay() {
      const subscription = startRelay(store, transport, {
        subscriptionId: 'checkout-relay',
        pollIntervalMs: 20,
      });
      await subscription.caughtUp();
      await subscription.stop();
    },
    scheduler() {
      const started = new DeliveryScheduler(
        queue,
        { now: (environment) => clock.now(environment) },
        () => {
          throw new Error('no payout endpoint secrets in these tests');
        },
        {
          pollMs: 20,
          maxInFlight: 10,
          policy: { allowInsecure: true },
          timeoutMs: 2_000,
          checkoutSecret: (credentialId) => accounts.checkoutSecret(credentialId),
        },
      );
      started.start();
      schedulers.push(started);
      return started;
    },
    async receiver() {
      // Each test's own, so no other test's retries can reach it.
      const started = await TestReceiver.start();
      receivers.push(started);
      return started;
    },
    async merchant(environment) {
      const { accountId } = await accounts.createAccount({ name: 'Shop', region: 'US' });
      const credential = await accounts.issueCredential(accountId, { kind: 'checkout', environment });
      return { accountId, credentialId: credential.credentialId, secret: credential.secret! };
    },
    async order(order, options = {}) {
      const orderId = newTestOrderId();
      await appendCreatedOrder(store, { ...order, orderId });
      if (options.pay !== false) await payCreatedOrder(store, orderId);
      return orderId;
    },
    async deliveryOf(orderId) {
      const { rows } = await database.db.query<DeliveryRow>(
        `SELECT d.status, d.attempts_made, d.max_attempts, d.next_attempt_at FROM webhook_deliveries d
           JOIN webhook_events e USING (event_id) WHERE e.order_id = $1`,
        [orderId],
      );
      return rows;
    },
    async attemptsOf(orderId) {
      const { rows } = await database.db.query<AttemptRow>(
        `SELECT a.attempt_number, a.endpoint_id, a.url, a.status_code, a.delivered, a.error,
                a.signature_timestamp::text AS signature_timestamp
           FROM webhook_attempts a JOIN webhook_events e USING (event_id)
          WHERE e.order_id = $1 ORDER BY a.attempt_number`,
        [orderId],
      );
      return rows;
    },
  };
}
