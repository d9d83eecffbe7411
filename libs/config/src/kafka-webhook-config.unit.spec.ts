import { ConfigurationError, loadConfig } from './app-config';

describe('Kafka and webhook configuration', () => {
  it('uses the in-process transport and refuses insecure webhook targets unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({
      kafka: undefined,
      webhooks: { allowInsecureTargets: false, pollMs: 250, maxInFlight: 100 },
    });
  });

  it('reads the brokers, the topic prefix and partitions, and the webhook settings', () => {
    expect(
      loadConfig({
        KAFKA_BROKERS: '127.0.0.1:19092, kafka-2.internal:9092',
        KAFKA_TOPIC_PREFIX: 'test-1.',
        KAFKA_TOPIC_PARTITIONS: '3',
        KAFKA_RELAY_POLL_MS: '5',
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        WEBHOOK_POLL_MS: '20',
        WEBHOOK_MAX_IN_FLIGHT: '8',
      }),
    ).toMatchObject({
      kafka: {
        brokers: ['127.0.0.1:19092', 'kafka-2.internal:9092'],
        topicPrefix: 'test-1.',
        topicPartitions: 3,
        relayPollMs: 5,
      },
      webhooks: { allowInsecureTargets: true, pollMs: 20, maxInFlight: 8 },
    });
    expect(loadConfig({ KAFKA_BROKERS: '127.0.0.1:19092' }).kafka).toEqual({
      brokers: ['127.0.0.1:19092'],
      topicPrefix: 'payouts.events.',
      topicPartitions: 6,
      relayPollMs: 10,
    });
  });

  it.each([
    [{ KAFKA_BROKERS: 'localhost' }, /KAFKA_BROKERS must be host:port/],
    [{ KAFKA_BROKERS: 'kafka://127.0.0.1:9092' }, /KAFKA_BROKERS must be host:port/],
    [{ KAFKA_BROKERS: '127.0.0.1:9092,' }, /KAFKA_BROKERS must be host:port/],
    [{ KAFKA_BROKERS: '127.0.0.1:9092', KAFKA_TOPIC_PREFIX: 'bad prefix' }, /KAFKA_TOPIC_PREFIX/],
    [
      { KAFKA_BROKERS: '127.0.0.1:9092', KAFKA_TOPIC_PARTITIONS: '0' },
      /KAFKA_TOPIC_PARTITIONS must be between/,
    ],
    [{ KAFKA_BROKERS: '127.0.0.1:9092', KAFKA_RELAY_POLL_MS: '0' }, /KAFKA_RELAY_POLL_MS must be between/],
    [{ WEBHOOK_ALLOW_INSECURE_TARGETS: 'yes' }, /WEBHOOK_ALLOW_INSECURE_TARGETS must be true or false/],
    [{ WEBHOOK_ALLOW_INSECURE_TARGETS: '1' }, /WEBHOOK_ALLOW_INSECURE_TARGETS must be true or false/],
    [{ WEBHOOK_POLL_MS: '1' }, /WEBHOOK_POLL_MS must be between/],
    [{ WEBHOOK_MAX_IN_FLIGHT: '0' }, /WEBHOOK_MAX_IN_FLIGHT must be between/],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigurationError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
