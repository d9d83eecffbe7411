import type { AuditEvent } from '../feed/audit-feed';
import { Finding } from './findings';
import { StreamOrder } from './stream-order';

const event = (streamId: string, streamVersion: number, position: number): AuditEvent => ({
  position: String(position),
  transactionId: String(position),
  streamId,
  streamType: 'payout',
  streamVersion,
  eventId: `e${position}`,
  eventType: 'X',
  schemaVersion: 1,
  data: {},
  metadata: {},
  recordedAt: '2026-03-01T12:00:00.000000Z',
});

describe('stream order', () => {
  let findings: Finding[];
  let order: StreamOrder;
  beforeEach(() => {
    findings = [];
    order = new StreamOrder((f) => findings.push(f));
  });

  it('hands on a version that came early once the one before it arrives, in version order', () => {
    expect(order.accept(event('s', 1, 1))).toHaveLength(1);
    expect(order.accept(event('s', 3, 2))).toEqual([]);
    expect(order.accept(event('s', 2, 3)).map((e) => e.streamVersion)).toEqual([2, 3]);
    order.finish();
    expect(findings).toEqual([]);
  });

  it('reports a version seen twice and a version that never came', () => {
    order.accept(event('s', 1, 1));
    order.accept(event('s', 1, 2));
    order.accept(event('t', 2, 3));
    order.finish();
    expect(findings.map((f) => [f.kind, f.position, f.streamId])).toEqual([
      ['version_duplicate', '2', 's'],
      ['version_gap', '3', 't'],
    ]);
  });
});
