import { randomUUID } from 'node:crypto';
import { Consumer, Kafka, logLevel } from 'kafkajs';
import type { SqlQueryable } from '@payouts/database';
import { PostgresEventStore } from '@payouts/event-store';
import { testBackends, TestDatabase } from '@payouts/testing';
import { appendPaidPayouts } from '../testing/paid-payouts';
import { eventually } from '../testing/receiver';
import { startRelay } from './event-relay';
import { EventTransport, RelayedEvent } from './event-transport';
import { KafkaTransport, topicFor } from './kafka-transport';

/**
 * The relay and the Kafka transport on a real broker (KAFKA_BROKERS; `npm run test:kafka`), read
 * back with a kafkajs consumer of the test's own.
 */
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

interface Seen {
  topic: string;
  key: string;
  event: RelayedEvent;
}

/** Publishes for real, then fails once as a relay killed before its checkpoint commits would. */
class DiesAfterPublishing implements EventTransport {
  readonly kind = 'kafka' as const;
  failures = 0;
  constructor(
    private readonly inner: EventTransport,
    private failuresLeft: number,
  ) {}
  async publish(events: readonly RelayedEvent[], tx: SqlQueryable): Promise<void> {
    await this.inner.publish(events, tx);
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      this.failures += 1;
      throw new Error('relay died before its checkpoint committed');
    }
  }
  consume(): Promise<void> {
    throw new Error('not used');
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

describe.each(testBackends())('the Kafka relay on $name', (backend) => {
  const kafka = new Kafka({ clientId: 'relay-test-reader', brokers, logLevel: logLevel.NOTHING });
  let database: TestDatabase;
  let store: PostgresEventStore;
  let consumer: Consumer | undefined;
  const transports: EventTransport[] = [];

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
  });
  afterAll(async () => {
    await consumer?.disconnect();
    await store.close();
    for (const transport of transports) await transport.close();
    await database.drop();
  });

  const transport = (prefix: string) => {
    const created = new KafkaTransport({
      brokers,
      clientId: 'relay-test',
      topicPrefix: prefix,
      topicPartitions: 3,
      db: database.db,
    });
    transports.push(created);
    return created;
  };

  async function readAll(topics: string[], seen: Seen[]): Promise<Consumer> {
    const reader = kafka.consumer({ groupId: `reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
    await reader.connect();
    await reader.subscribe({ topics, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ topic, message }) => {
        seen.push({
          topic,
          key: String(message.key),
          event: JSON.parse(String(message.value)) as RelayedEvent,
        });
      },
    });
    return reader;
  }

  it('publishes every committed event once or more, a topic per stream type, keyed and in order per stream, even when the relay dies after publishing', async () => {
    const prefix = `relay-${randomUUID().slice(0, 8)}.`;
    const payoutIds = await appendPaidPayouts(store, 'acct_relay', 'sandbox', 40);
    // A second stream type, appended while the relay runs.
    const kafkaTransport = transport(prefix);
    const dying = new DiesAfterPublishing(kafkaTransport, 2);
    const relay = startRelay(store, dying, {
      subscriptionId: `relay-${prefix}`,
      pollIntervalMs: 20,
      batchSize: 50,
    });
    for (let i = 0; i < 5; i++) {
      await store.append([
        {
          streamId: `ledger-acct_relay-sandbox`,
          streamType: 'ledger',
          expectedVersion: i,
          events: [{ type: 'FundsCredited', schemaVersion: 1, data: { amount: `${i + 1}.00` } }],
        },
      ]);
    }
    await eventually(async () => {
      await relay.caughtUp();
      return true;
    });
    await relay.stop();
    expect(dying.failures).toBe(2);

    const seen: Seen[] = [];
    consumer = await readAll([topicFor(prefix, 'payout'), topicFor(prefix, 'ledger')], seen);
    const committed = await store.readFeed({ transactionId: '0', position: '0' }, 10_000);
    await eventually(() => {
      const ids = new Set(seen.map((s) => s.event.eventId));
      return committed.every((e) => ids.has(e.eventId)) ? true : undefined;
    });
    expect(committed).toHaveLength(40 * 3 + 5);
    // At least once: the batches published before the "deaths" came again, under the same ids.
    expect(seen.length).toBeGreaterThan(committed.length);
    for (const s of seen) {
      expect(s.topic).toBe(topicFor(prefix, s.event.streamType));
      expect(s.key).toBe(s.event.streamId);
      const original = committed.find((e) => e.eventId === s.event.eventId)!;
      expect(s.event).toMatchObject({
        envelopeVersion: 1,
        streamId: original.streamId,
        streamVersion: original.streamVersion,
        type: original.type,
        globalPosition: original.globalPosition,
      });
    }
    // One stream, one key, one partition: its events arrive in stream order (repeats aside).
    for (const payoutId of payoutIds) {
      const versions = seen
        .filter((s) => s.event.streamId === `payout-${payoutId}`)
        .map((s) => s.event.streamVersion);
      const firstSeen = versions.filter((v, i) => versions.indexOf(v) === i);
      expect(firstSeen).toEqual([1, 2, 3]);
    }
  });

  it('hands a consumer group each batch in a transaction, and again when the handler failed', async () => {
    const prefix = `consume-${randomUUID().slice(0, 8)}.`;
    const payoutIds = await appendPaidPayouts(store, 'acct_consume', 'sandbox', 10);
    const relay = startRelay(store, transport(prefix), {
      subscriptionId: `relay-${prefix}`,
      pollIntervalMs: 20,
    });
    await relay.caughtUp();
    await relay.stop();

    const handled: string[] = [];
    let failOnce = true;
    const reading = transport(prefix);
    await reading.consume({
      groupId: `group-${prefix}`,
      streamTypes: ['payout'],
      handler: async (events, tx) => {
        await tx.query('SELECT 1');
        if (failOnce) {
          failOnce = false;
          throw new Error('the first batch fails');
        }
        handled.push(...events.map((e) => e.eventId));
      },
    });
    const expected = (await store.readFeed({ transactionId: '0', position: '0' }, 10_000))
      .filter((e) => payoutIds.some((id) => e.streamId === `payout-${id}`))
      .map((e) => e.eventId);
    await eventually(() => (expected.every((id) => handled.includes(id)) ? true : undefined), 60_000);
    expect(failOnce).toBe(false);
  });
});
