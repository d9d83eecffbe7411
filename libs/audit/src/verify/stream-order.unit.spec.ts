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
  let index: number;
  const accept = (e: AuditEvent) => order.accept(e, index++);
  const finish = (): number[] =>
    order.waiting().map(({ finding, since }) => {
      findings.push(finding);
      return since;
    });
  beforeEach(() => {
    findings = [];
    order = new StreamOrder((f) => findings.push(f));
    index = 0;
  });

  it('hands on a version that came early once the one before it arrives, in version order', () => {
    expect(accept(event('s', 1, 1))).toHaveLength(1);
    expect(accept(event('s', 3, 2))).toEqual([]);
    expect(accept(event('s', 2, 3)).map((e) => e.streamVersion)).toEqual([2, 3]);
    expect(finish()).toEqual([]);
    expect(findings).toEqual([]);
  });

  it('reports a version seen twice and a version that never came', () => {
    accept(event('s', 1, 1));
    accept(event('s', 1, 2));
    accept(event('t', 2, 3));
    finish();
    expect(findings.map((f) => [f.kind, f.position, f.streamId])).toEqual([
      ['version_duplicate', '2', 's'],
      ['version_gap', '3', 't'],
    ]);
  });

  it('gives each gap the index where its stream began to wait, in that order, a wait that ended and began again last', () => {
    accept(event('a', 3, 1)); // index 0: a waits
    accept(event('b', 2, 2)); // index 1: b waits
    accept(event('a', 1, 3)); // index 2
    accept(event('a', 2, 4)); // index 3: a's wait ends (1, 2, 3 handed on)
    accept(event('a', 5, 5)); // index 4: a waits again, after b
    expect(finish()).toEqual([1, 4]);
    expect(findings.map((f) => [f.streamId, f.position])).toEqual([
      ['b', '2'],
      ['a', '5'],
    ]);
  });
});
