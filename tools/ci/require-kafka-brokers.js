'use strict';
// The Kafka suites need a broker; say so plainly instead of running nothing.
if (!process.env.KAFKA_BROKERS) {
  process.stderr.write(
    'test:kafka needs KAFKA_BROKERS, e.g. KAFKA_BROKERS="$(bash tools/kafka/start.sh)" npm run test:kafka ' +
      '(npm run kafka:start prints the address; see README "Kafka for tests")\n',
  );
  process.exit(2);
}
