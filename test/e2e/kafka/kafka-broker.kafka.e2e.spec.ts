import { randomUUID } from 'node:crypto';
import { Admin, Consumer, Kafka, logLevel, Partitioners, Producer } from 'kafkajs';

/**
 * Proves the test broker (tools/kafka/start.sh) is a real Kafka: a topic with 3 partitions, 100
 * keyed messages, one consumer group; every message arrives exactly once and each key's messages
 * arrive in the order they were sent. `*.kafka.*.spec.ts` files run only with KAFKA_BROKERS set
 * (`npm run test:kafka`); jest.config.js leaves them out otherwise.
 */
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

const KEYS = 10;
const ROUNDS = 10;

interface Received {
  key: string;
  /** The key written in the value by the producer: must equal the message key. */
  sentKey: string;
  seq: number;
  partition: number;
}

describe('the Kafka test broker', () => {
  // kafkajs logs the retriable errors of a fresh broker (the group coordinator is created on the
  // first group) as ERROR; real failures still reach the test as rejections or a consumer crash.
  const kafka = new Kafka({ clientId: 'kafka-broker-proof', brokers, logLevel: logLevel.NOTHING });
  const topic = `proof-${randomUUID()}`;
  let admin: Admin;
  let producer: Producer;
  let consumer: Consumer | undefined;

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await admin?.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin?.disconnect();
  });

  it('delivers 100 keyed messages on 3 partitions once each, in order per key, to a consumer group', async () => {
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true })).toBe(
      true,
    );
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(topics[0]?.partitions).toHaveLength(3);

    // Ten rounds of one message per key, each round acknowledged before the next is sent.
    for (let seq = 0; seq < ROUNDS; seq++) {
      await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: KEYS }, (_, k) => ({
          key: `key-${k}`,
          value: JSON.stringify({ key: `key-${k}`, seq }),
        })),
      });
    }

    const received: Received[] = [];
    let allArrived!: () => void;
    let crashed!: (error: Error) => void;
    const arrived = new Promise<void>((resolve, reject) => {
      allArrived = resolve;
      crashed = reject;
    });
    consumer = kafka.consumer({ groupId: `proof-${randomUUID()}` });
    consumer.on(consumer.events.CRASH, ({ payload }) => crashed(payload.error));
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        const { key: sentKey, seq } = JSON.parse(String(message.value)) as { key: string; seq: number };
        received.push({ key: String(message.key), sentKey, seq, partition });
        if (received.length === KEYS * ROUNDS) allArrived();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        arrived,
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`only ${received.length} of 100 messages arrived in 30 s`)),
            30_000,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    // Anything redelivered would show up now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect(received).toHaveLength(KEYS * ROUNDS);
    expect(received.filter(({ key, sentKey }) => key !== sentKey)).toEqual([]);
    const distinct = new Set(received.map(({ key, seq }) => `${key}/${seq}`));
    expect(distinct.size).toBe(KEYS * ROUNDS);
    for (let k = 0; k < KEYS; k++) {
      const ofKey = received.filter(({ key }) => key === `key-${k}`);
      expect(ofKey.map(({ seq }) => seq)).toEqual(Array.from({ length: ROUNDS }, (_, seq) => seq));
      // One key, one partition: that is what gives the per-key order.
      expect(new Set(ofKey.map(({ partition }) => partition)).size).toBe(1);
    }
    // The keys really were spread over the partitions.
    expect(new Set(received.map(({ partition }) => partition)).size).toBeGreaterThan(1);
  });
});
