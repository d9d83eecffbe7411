import { encodeAppends } from './encode-appends';
import { EVENT_STORE_LIMITS, FEED_START, StreamAppend } from './event-store.port';
import { compareCheckpoints, isFeedCheckpoint } from './feed-checkpoint';
import { asStoredJson } from './postgres/event-row';

const event = { type: 'Happened', schemaVersion: 1, data: { n: 1 } };
const append = (streamId: string, overrides: Partial<StreamAppend> = {}): StreamAppend => ({
  streamId,
  streamType: 'test',
  expectedVersion: 'any',
  events: [event],
  ...overrides,
});

describe('encodeAppends', () => {
  it('sorts streams by id so every writer locks them in the same order', () => {
    expect(encodeAppends([append('c'), append('a'), append('b')]).map((a) => a.streamId)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('folds expected version 0 into no_stream and keeps what the caller gave for error messages', () => {
    const [encoded] = encodeAppends([append('a', { expectedVersion: 0 })]);
    expect(encoded).toMatchObject({ check: { kind: 'no_stream' }, expectedVersion: 0 });
    expect(encodeAppends([append('a', { expectedVersion: 7 })])[0]?.check).toEqual({
      kind: 'version',
      version: 7,
    });
  });

  it('serialises data and metadata as JSON and gives every event a UUID', () => {
    const [encoded] = encodeAppends([
      append('a', { events: [{ ...event, data: { at: new Date(0) } }, event] }),
    ]);
    expect(encoded?.data).toEqual(['{"at":"1970-01-01T00:00:00.000Z"}', '{"n":1}']);
    expect(encoded?.metadata).toEqual(['{}', '{}']);
    expect(new Set(encoded?.eventIds).size).toBe(2);
  });

  it.each([
    ['no streams', []],
    ['an empty stream id', [append('')]],
    ['a stream twice', [append('a'), append('a')]],
    ['no events', [append('a', { events: [] })]],
    ['a negative version', [append('a', { expectedVersion: -1 })]],
    ['a fractional version', [append('a', { expectedVersion: 1.5 })]],
    ['a schema version of 0', [append('a', { events: [{ ...event, schemaVersion: 0 }] })]],
    ['an event id that is not a UUID', [append('a', { events: [{ ...event, eventId: 'x' }] })]],
    [
      'metadata that is an array',
      [append('a', { events: [{ ...event, metadata: [] as unknown as Record<string, unknown> }] })],
    ],
    [
      'too many events',
      [
        append('a', {
          events: Array.from({ length: EVENT_STORE_LIMITS.maxEventsPerAppend + 1 }, () => event),
        }),
      ],
    ],
  ])('refuses %s', (_, appends) => {
    expect(() => encodeAppends(appends as StreamAppend[])).toThrow(RangeError);
  });

  it('refuses data that JSON cannot carry', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeAppends([append('a', { events: [{ ...event, data: cyclic }] })])).toThrow(TypeError);
    expect(() => encodeAppends([append('a', { events: [{ ...event, data: undefined }] })])).toThrow(
      TypeError,
    );
    expect(() => encodeAppends([append('a', { events: [{ ...event, data: 1n }] })])).toThrow(TypeError);
  });
});

describe('feed checkpoints', () => {
  it('orders by transaction id, then position, as numbers', () => {
    expect(
      compareCheckpoints({ transactionId: '9', position: '100' }, { transactionId: '10', position: '1' }),
    ).toBeLessThan(0);
    expect(
      compareCheckpoints({ transactionId: '10', position: '9' }, { transactionId: '10', position: '10' }),
    ).toBeLessThan(0);
    expect(compareCheckpoints(FEED_START, { transactionId: '0', position: '0' })).toBe(0);
  });

  it('accepts only decimal parts', () => {
    expect(isFeedCheckpoint({ transactionId: '18446744073709551615', position: '1' })).toBe(true);
    expect(isFeedCheckpoint({ transactionId: '-1', position: '0' })).toBe(false);
    expect(isFeedCheckpoint({ transactionId: '1', position: '1e3' })).toBe(false);
  });
});

describe('asStoredJson', () => {
  it('orders object keys as jsonb does: shorter first, then by UTF-8 bytes', () => {
    const value = asStoredJson('{"zeta":1,"b":{"yy":1,"x":2},"aa":[{"d":1,"c":2}],"é":1,"a":0}');
    expect(JSON.stringify(value)).toBe('{"a":0,"b":{"x":2,"yy":1},"aa":[{"c":2,"d":1}],"é":1,"zeta":1}');
  });

  it('orders each shape right when it comes again, also when two key sets join to the same text', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(JSON.stringify(asStoredJson('{"bb":1,"a":2}'))).toBe('{"a":2,"bb":1}');
      // Keys "bb", "a" and the single key "bb,a" would share a signature joined by commas.
      expect(JSON.stringify(asStoredJson('{"bb,a":1}'))).toBe('{"bb,a":1}');
      expect(JSON.stringify(asStoredJson('{"a":1,"bb":{"d":1,"c":2}}'))).toBe('{"a":1,"bb":{"c":2,"d":1}}');
    }
  });
});
