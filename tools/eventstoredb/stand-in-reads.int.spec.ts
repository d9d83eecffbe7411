// Streams.Read in read mode through the real client: one stream and $all, both directions,
// from start, end, a revision or a position, with a count; a missing stream.
import { type EventStoreDBClient, type Position, StreamNotFoundError } from '@eventstore/db-client';
import { startStandIn, type StandIn } from './stand-in-server';
import { clientOf, event, gather, typesOf, uniqueStream } from './testing/stand-in-client';

describe('EventStoreDB stand-in: Streams.Read', () => {
  let standIn: StandIn;
  let client: EventStoreDBClient;
  const stream = uniqueStream('orders');
  const other = uniqueStream('payouts');

  beforeAll(async () => {
    standIn = await startStandIn();
    client = clientOf(standIn);
    await client.appendToStream(stream, [event('A0'), event('A1')]);
    await client.appendToStream(other, event('B0'));
    await client.appendToStream(stream, [event('A2'), event('A3')]);
  });

  afterAll(async () => {
    await client.dispose();
    await standIn.stop();
  });

  describe('a stream', () => {
    it('reads forwards from the start, from a revision, and up to a count', async () => {
      expect(typesOf(await gather(client.readStream(stream)))).toEqual(['A0', 'A1', 'A2', 'A3']);
      expect(typesOf(await gather(client.readStream(stream, { fromRevision: 2n })))).toEqual(['A2', 'A3']);
      expect(typesOf(await gather(client.readStream(stream, { fromRevision: 1n, maxCount: 2 })))).toEqual([
        'A1',
        'A2',
      ]);
      expect(await gather(client.readStream(stream, { fromRevision: 'end' }))).toEqual([]);
      expect(await gather(client.readStream(stream, { fromRevision: 9n }))).toEqual([]);
    });

    it('reads backwards from the end and from a revision, that revision included', async () => {
      const backwards = { direction: 'backwards' } as const;
      expect(typesOf(await gather(client.readStream(stream, { ...backwards, fromRevision: 'end' })))).toEqual(
        ['A3', 'A2', 'A1', 'A0'],
      );
      expect(typesOf(await gather(client.readStream(stream, { ...backwards, fromRevision: 1n })))).toEqual([
        'A1',
        'A0',
      ]);
      expect(
        typesOf(await gather(client.readStream(stream, { ...backwards, fromRevision: 'end', maxCount: 1 }))),
      ).toEqual(['A3']);
    });

    it('gives each event its stream, revision and $all position', async () => {
      const [first] = await gather(client.readStream(stream, { fromRevision: 1n, maxCount: 1 }));
      expect(first?.event).toMatchObject({ streamId: stream, revision: 1n, type: 'A1' });
      const [inAll] = await gather(client.readAll({ fromPosition: first!.event!.position!, maxCount: 1 }));
      expect(inAll?.event?.id).toBe(first?.event?.id);
    });

    it('raises StreamNotFoundError for a stream never written, in either direction', async () => {
      const missing = uniqueStream();
      const error: unknown = await gather(client.readStream(missing)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamNotFoundError);
      expect((error as StreamNotFoundError).streamName).toBe(missing);
      await expect(gather(client.readStream(missing, { direction: 'backwards' }))).rejects.toBeInstanceOf(
        StreamNotFoundError,
      );
    });
  });

  describe('$all', () => {
    // Each suite has a stand-in of its own, so $all holds only these events.
    it('reads forwards from the start and backwards from the end, in commit order', async () => {
      const forwards = typesOf(await gather(client.readAll()));
      expect(forwards).toEqual(['A0', 'A1', 'B0', 'A2', 'A3']);
      const backwards = typesOf(
        await gather(client.readAll({ fromPosition: 'end', direction: 'backwards' })),
      );
      expect(backwards).toEqual(['A3', 'A2', 'B0', 'A1', 'A0']);
      expect(await gather(client.readAll({ fromPosition: 'end' }))).toEqual([]);
      expect(await gather(client.readAll({ fromPosition: 'start', direction: 'backwards' }))).toEqual([]);
    });

    it('reads forwards from a position with that event, backwards from it without, up to a count', async () => {
      const all = await gather(client.readAll());
      const b0 = all.find((e) => e.event?.type === 'B0')!;
      const position: Position = b0.event!.position!;
      expect(b0.commitPosition).toBe(position.commit);

      expect(typesOf(await gather(client.readAll({ fromPosition: position, maxCount: 2 })))).toEqual([
        'B0',
        'A2',
      ]);
      expect(
        typesOf(
          await gather(client.readAll({ fromPosition: position, direction: 'backwards', maxCount: 2 })),
        ),
      ).toEqual(['A1', 'A0']);
    });
  });
});
