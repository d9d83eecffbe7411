// Streams.Read in subscription mode through the real client: subscribeToAll (from start, a
// position or the end; server-side filters; checkpoints) and subscribeToStream, catching up
// on stored events and then receiving live ones.
import { eventTypeFilter, type EventStoreDBClient, streamNameFilter } from '@eventstore/db-client';
import { startStandIn, type StandIn } from './stand-in-server';
import { clientOf, event, SubscriptionRecorder, uniqueStream } from './testing/stand-in-client';

describe('EventStoreDB stand-in: subscriptions', () => {
  let standIn: StandIn;
  let client: EventStoreDBClient;
  const recorders: SubscriptionRecorder[] = [];
  const record = (...args: Parameters<typeof SubscriptionRecorder.start>): SubscriptionRecorder => {
    const recorder = SubscriptionRecorder.start(...args);
    recorders.push(recorder);
    return recorder;
  };

  beforeEach(async () => {
    standIn = await startStandIn();
    client = clientOf(standIn);
  });

  afterEach(async () => {
    await Promise.all(recorders.splice(0).map((recorder) => recorder.stop()));
    await client.dispose();
    await standIn.stop();
  });

  it('subscribeToAll confirms, delivers the stored events, says caught up, then delivers live appends', async () => {
    await client.appendToStream('a', [event('Stored1'), event('Stored2')]);
    const all = record(() => client.subscribeToAll());
    await all.until((r) => r.items.some((item) => item.kind === 'caughtUp'));
    expect(all.confirmed).toBe(true);
    expect(all.summary()).toEqual(['Stored1', 'Stored2', 'caughtUp']);

    await client.appendToStream('b', event('Live1'));
    await client.appendToStream('a', [event('Live2'), event('Live3')]);
    await all.until((r) => r.eventTypes().length === 5);
    expect(all.summary()).toEqual(['Stored1', 'Stored2', 'caughtUp', 'Live1', 'Live2', 'Live3']);
  });

  it('subscribeToAll from a position starts after it; from the end, only live events', async () => {
    const first = await client.appendToStream('a', event('One'));
    await client.appendToStream('a', event('Two'));
    const fromPosition = record(() => client.subscribeToAll({ fromPosition: first.position! }));
    const fromEnd = record(() => client.subscribeToAll({ fromPosition: 'end' }));
    await fromEnd.until((r) => r.items.some((item) => item.kind === 'caughtUp'));

    await client.appendToStream('a', event('Three'));
    await fromPosition.until((r) => r.eventTypes().length === 2);
    await fromEnd.until((r) => r.eventTypes().length === 1);
    expect(fromPosition.eventTypes()).toEqual(['Two', 'Three']);
    expect(fromEnd.summary()).toEqual(['caughtUp', 'Three']);
  });

  it('filters $all on stream name prefixes and on an event type regex, stored and live alike', async () => {
    await client.appendToStream('payout-1', event('PayoutCreated'));
    await client.appendToStream('ledger-1', event('FundsReserved'));
    const byStream = record(() =>
      client.subscribeToAll({ filter: streamNameFilter({ prefixes: ['payout-'] }) }),
    );
    const byType = record(() => client.subscribeToAll({ filter: eventTypeFilter({ regex: '^Funds' }) }));
    await client.appendToStream('ledger-1', event('FundsReleased'));
    await client.appendToStream('payout-1', event('PayoutPaid'));

    await byStream.until((r) => r.eventTypes().length === 2);
    await byType.until((r) => r.eventTypes().length === 2);
    expect(byStream.eventTypes()).toEqual(['PayoutCreated', 'PayoutPaid']);
    expect(byType.eventTypes()).toEqual(['FundsReserved', 'FundsReleased']);
  });

  it('sends a checkpoint every checkpointInterval × maxSearchWindow events considered, matching or not', async () => {
    const filtered = record((checkpointReached) =>
      client.subscribeToAll({
        filter: streamNameFilter({
          prefixes: ['kept-'],
          maxSearchWindow: 2,
          checkpointInterval: 2,
          checkpointReached,
        }),
      }),
    );
    await filtered.until((r) => r.items.some((item) => item.kind === 'caughtUp'));
    const appended: bigint[] = [];
    for (let i = 0; i < 9; i += 1) {
      const result = await client.appendToStream(i % 3 === 0 ? 'kept-1' : 'skipped-1', event(`E${i}`));
      appended.push(result.position!.commit);
    }

    await filtered.until((r) => r.items.filter((item) => item.kind === 'checkpoint').length === 2);
    // Every fourth event considered (E3, E7), at its position, after it when it matches.
    expect(filtered.summary()).toEqual([
      'caughtUp',
      'E0',
      'E3',
      `checkpoint@${appended[3]}`,
      'E6',
      `checkpoint@${appended[7]}`,
    ]);
  });

  it('subscribeToStream catches up on one stream from the start or after a revision, then follows it', async () => {
    const stream = uniqueStream();
    await client.appendToStream(stream, [event('S0'), event('S1')]);
    await client.appendToStream('elsewhere', event('Other'));
    const fromStart = record(() => client.subscribeToStream(stream));
    const afterFirst = record(() => client.subscribeToStream(stream, { fromRevision: 0n }));
    const notYetWritten = record(() => client.subscribeToStream(uniqueStream()));
    await client.appendToStream(stream, event('S2'));

    await fromStart.until((r) => r.eventTypes().length === 3);
    await afterFirst.until((r) => r.eventTypes().length === 2);
    expect(fromStart.summary()).toEqual(['S0', 'S1', 'caughtUp', 'S2']);
    expect(afterFirst.eventTypes()).toEqual(['S1', 'S2']);
    await notYetWritten.until((r) => r.confirmed && r.items.length === 1);
    expect(notYetWritten.summary()).toEqual(['caughtUp']);
  });
});
