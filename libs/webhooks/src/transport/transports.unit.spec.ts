import type { SqlClient, SqlQueryable } from '@payouts/database';
import { DeliveryScheduler } from '../dispatcher/delivery-scheduler';
import type { DeliveryQueue } from '../store/delivery-queue';
import { parseRelayedEvent, RelayedEvent } from './event-transport';
import { InProcessTransport } from './in-process-transport';
import { KafkaTransport, topicFor } from './kafka-transport';

const tx = {} as SqlQueryable;
const event = (streamType: string, type: string, n = 1): RelayedEvent => ({
  envelopeVersion: 1,
  eventId: `00000000-0000-4000-8000-00000000000${n}`,
  streamId: `${streamType}-${n}`,
  streamType,
  streamVersion: n,
  type,
  schemaVersion: 1,
  data: {},
  metadata: {},
  recordedAt: '2026-01-01T00:00:00.000Z',
  globalPosition: String(n),
  transactionId: '1',
});

describe('the in-process transport', () => {
  it('hands each consumer the events of its stream and event types, in the relay’s transaction', async () => {
    const transport = new InProcessTransport();
    const seen: [RelayedEvent[], SqlQueryable][] = [];
    let handled = 0;
    await transport.consume({
      groupId: 'g',
      streamTypes: ['payout'],
      eventTypes: ['PayoutPaid'],
      handler: async (events, given) => void seen.push([events, given]),
      onHandled: () => (handled += 1),
    });
    await transport.publish(
      [
        event('payout', 'PayoutCreated', 1),
        event('payout', 'PayoutPaid', 2),
        event('ledger', 'PayoutPaid', 3),
      ],
      tx,
    );
    expect(seen).toEqual([[[event('payout', 'PayoutPaid', 2)], tx]]);
    expect(handled).toBe(1);
    await transport.publish([event('ledger', 'FundsCredited', 4)], tx);
    expect(seen).toHaveLength(1);
  });

  it('refuses to publish with no consumer (the relay would skip what nobody handled), after close, and a group twice', async () => {
    const transport = new InProcessTransport();
    await expect(transport.publish([event('payout', 'PayoutPaid')], tx)).rejects.toThrow(
      'has no consumer yet',
    );
    const options = { groupId: 'g', streamTypes: ['payout'], handler: async () => undefined };
    await transport.consume(options);
    await expect(transport.consume(options)).rejects.toThrow('consumer group g is already registered');
    await transport.close();
    await expect(transport.publish([event('payout', 'PayoutPaid')], tx)).rejects.toThrow('is closed');
  });
});

describe('the Kafka transport', () => {
  it('names a topic per stream type under the prefix, with only the characters Kafka allows', () => {
    expect(topicFor('payouts.events.', 'payout')).toBe('payouts.events.payout');
    expect(topicFor('payouts.events.', 'merchant-reference')).toBe('payouts.events.merchant-reference');
    expect(topicFor('p.', 'odd type/é')).toBe('p.odd_type__');
  });

  it('refuses to publish or consume once closed', async () => {
    const transport = new KafkaTransport({
      brokers: ['127.0.0.1:1'],
      clientId: 'closed',
      topicPrefix: 'x.',
      topicPartitions: 1,
      db: {} as SqlClient,
    });
    await transport.close();
    await expect(transport.publish([event('payout', 'PayoutPaid')], tx)).rejects.toThrow('is closed');
    await expect(
      transport.consume({ groupId: 'g', streamTypes: ['payout'], handler: async () => undefined }),
    ).rejects.toThrow('is closed');
  });
});

describe('reading an envelope back', () => {
  it('accepts what the relay wrote', () => {
    expect(parseRelayedEvent(JSON.stringify(event('payout', 'PayoutPaid')))).toEqual(
      event('payout', 'PayoutPaid'),
    );
  });

  it.each([
    ['not JSON', '{'],
    ['not an object', '42'],
    ['null', 'null'],
    ['another envelope version', JSON.stringify({ ...event('payout', 'PayoutPaid'), envelopeVersion: 2 })],
    ['no stream id', JSON.stringify({ ...event('payout', 'PayoutPaid'), streamId: undefined })],
    [
      'a version that is not a number',
      JSON.stringify({ ...event('payout', 'PayoutPaid'), streamVersion: '1' }),
    ],
  ])('refuses %s', (_case, value) => {
    expect(parseRelayedEvent(value)).toBeNull();
  });
});

describe('the delivery scheduler', () => {
  it.each([[0], [-1], [1.5]])('refuses %p attempts in flight', (maxInFlight) => {
    expect(
      () =>
        new DeliveryScheduler({} as DeliveryQueue, { now: () => new Date() }, () => 'secret', {
          pollMs: 10,
          maxInFlight,
          policy: { allowInsecure: false },
        }),
    ).toThrow('maxInFlight must be a positive integer');
  });
});
