import type { StreamAppend } from '@payouts/event-store';
import { MemoryStreams } from './memory-streams';
import { Schedule } from './schedule';

const append = (streamId: string, expectedVersion: number, count = 1): StreamAppend => ({
  streamId,
  streamType: 'ledger',
  expectedVersion: expectedVersion === 0 ? 'no_stream' : expectedVersion,
  events: Array.from({ length: count }, () => ({ type: 'X', schemaVersion: 1, data: {} })),
});

describe('the builder’s streams in memory', () => {
  it('moves each stream to its version after an append and hands the append on as one', () => {
    const sunk: (readonly StreamAppend[])[] = [];
    const streams = new MemoryStreams((appends) => sunk.push(appends));
    streams.commit([
      { append: append('a', 0, 2), after: 'a2' },
      { append: append('b', 0), after: 'b1' },
    ]);
    expect(streams.load('a', () => 'none')).toEqual({ state: 'a2', version: 2 });
    expect(sunk.map((appends) => appends.map((a) => a.streamId))).toEqual([['a', 'b']]);
  });

  it('refuses an append at a version the stream is not at, writing none of its streams', () => {
    const sunk: (readonly StreamAppend[])[] = [];
    const streams = new MemoryStreams((appends) => sunk.push(appends));
    streams.commit([{ append: append('a', 0), after: 'a1' }]);
    expect(() =>
      streams.commit([
        { append: append('b', 0), after: 'b1' },
        { append: append('a', 0), after: 'again' },
      ]),
    ).toThrow('a is at 1, the append expected 0');
    expect(streams.load('b', () => 'none')).toEqual({ state: 'none', version: 0 });
    expect(sunk).toHaveLength(1);
  });

  it('forgets a closed stream and writes nothing for a part without events', () => {
    const sunk: (readonly StreamAppend[])[] = [];
    const streams = new MemoryStreams((appends) => sunk.push(appends));
    streams.commit([{ append: append('a', 0), after: 'paid', closed: true }]);
    streams.commit([{ append: { ...append('b', 0), events: [] }, after: 'b' }]);
    expect(streams.load('a', () => 'none')).toEqual({ state: 'none', version: 0 });
    expect(sunk).toHaveLength(1);
  });
});

describe('the simulated clock', () => {
  it('runs what fell due in time order, ties in the order planned, each at its own time', () => {
    const schedule = new Schedule(1_000);
    const ran: string[] = [];
    const note = (name: string) => () => ran.push(`${name}@${schedule.nowMs}`);
    schedule.at(1_300, note('c'));
    schedule.at(1_100, note('a'));
    schedule.at(1_300, note('d'));
    schedule.after(200, note('b'));
    schedule.at(5_000, note('later'));
    schedule.advance(2_000);
    expect(ran).toEqual(['a@1100', 'b@1200', 'c@1300', 'd@1300']);
    expect(schedule.nowMs).toBe(2_000);
  });

  it('never runs a task in the past: one planned before now runs at now', () => {
    const schedule = new Schedule(1_000);
    let at = 0;
    schedule.at(500, () => (at = schedule.nowMs));
    schedule.advance(1_000);
    expect(at).toBe(1_000);
  });
});
