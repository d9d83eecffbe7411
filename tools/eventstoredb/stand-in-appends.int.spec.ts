// Streams.Append through the real client: expected revisions, conflicts, idempotent
// re-appends, atomic multi-event appends, and the bytes kept exactly.
import { randomUUID } from 'node:crypto';
import {
  binaryEvent,
  type EventStoreDBClient,
  jsonEvent,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { startStandIn, type StandIn } from './stand-in-server';
import { clientOf, event, gather, uniqueStream } from './testing/stand-in-client';

describe('EventStoreDB stand-in: Streams.Append', () => {
  let standIn: StandIn;
  let client: EventStoreDBClient;

  beforeAll(async () => {
    standIn = await startStandIn();
    client = clientOf(standIn);
  });

  afterAll(async () => {
    await client.dispose();
    await standIn.stop();
  });

  const conflictOf = async (append: Promise<unknown>): Promise<WrongExpectedVersionError> => {
    const error: unknown = await append.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    return error as WrongExpectedVersionError;
  };

  it('creates a stream with no_stream, then refuses no_stream with the current revision', async () => {
    const stream = uniqueStream();
    const created = await client.appendToStream(stream, [event('A'), event('B')], {
      expectedRevision: 'no_stream',
    });
    expect(created.success).toBe(true);
    expect(created.nextExpectedRevision).toBe(1n);
    expect(created.position?.commit).toBe(created.position?.prepare);

    const conflict = await conflictOf(
      client.appendToStream(stream, event('C'), { expectedRevision: 'no_stream' }),
    );
    expect(conflict.streamName).toBe(stream);
    expect(conflict.expectedVersion).toBe('no_stream');
    expect(conflict.actualVersion).toBe(1n);
  });

  it('appends at the exact current revision and refuses any other, naming the current one', async () => {
    const stream = uniqueStream();
    await client.appendToStream(stream, event('A'), { expectedRevision: 'no_stream' });
    const next = await client.appendToStream(stream, event('B'), { expectedRevision: 0n });
    expect(next.nextExpectedRevision).toBe(1n);

    const behind = await conflictOf(client.appendToStream(stream, event('C'), { expectedRevision: 0n }));
    expect([behind.expectedVersion, behind.actualVersion]).toEqual([0n, 1n]);
    const ahead = await conflictOf(client.appendToStream(stream, event('C'), { expectedRevision: 5n }));
    expect([ahead.expectedVersion, ahead.actualVersion]).toEqual([5n, 1n]);
    const missing = await conflictOf(
      client.appendToStream(uniqueStream(), event('C'), { expectedRevision: 0n }),
    );
    expect(missing.actualVersion).toBe('no_stream');
  });

  it('refuses stream_exists on a stream that does not exist and takes it on one that does', async () => {
    const stream = uniqueStream();
    const refused = await conflictOf(
      client.appendToStream(stream, event('A'), { expectedRevision: 'stream_exists' }),
    );
    expect([refused.expectedVersion, refused.actualVersion]).toEqual(['stream_exists', 'no_stream']);
    await expect(gather(client.readStream(stream))).rejects.toBeInstanceOf(StreamNotFoundError);

    await client.appendToStream(stream, event('A'));
    const appended = await client.appendToStream(stream, event('B'), { expectedRevision: 'stream_exists' });
    expect(appended.nextExpectedRevision).toBe(1n);
  });

  it('appends with any whatever the stream holds', async () => {
    const stream = uniqueStream();
    expect((await client.appendToStream(stream, event('A'))).nextExpectedRevision).toBe(0n);
    expect(
      (await client.appendToStream(stream, event('B'), { expectedRevision: 'any' })).nextExpectedRevision,
    ).toBe(1n);
  });

  it('writes the events of one append together, with increasing revisions and positions', async () => {
    const stream = uniqueStream();
    const before = standIn.eventCount();
    const result = await client.appendToStream(stream, [event('A'), event('B'), event('C')]);
    expect(standIn.eventCount()).toBe(before + 3);

    const events = await gather(client.readStream(stream));
    expect(events.map((e) => e.event?.revision)).toEqual([0n, 1n, 2n]);
    const positions = events.map((e) => e.event?.position?.commit ?? -1n);
    expect(positions[0]! < positions[1]! && positions[1]! < positions[2]!).toBe(true);
    expect(result.position?.commit).toBe(positions[2]);
    // Positions are offsets with gaps, as EventStoreDB's are, never 0 for a user event.
    expect(positions[1]! - positions[0]!).toBeGreaterThan(1n);
    expect(positions[0]! > 0n).toBe(true);

    const tail = await gather(client.readAll({ fromPosition: 'end', direction: 'backwards', maxCount: 3 }));
    expect(tail.map((e) => e.event?.streamId)).toEqual([stream, stream, stream]);
  });

  describe('idempotent re-append', () => {
    it('answers the original result and writes nothing for the same ids at the same expected revision', async () => {
      const stream = uniqueStream();
      await client.appendToStream(stream, event('First'));
      const events = [event('A'), event('B')];
      const original = await client.appendToStream(stream, events, { expectedRevision: 0n });
      await client.appendToStream(stream, event('Later'));
      const count = standIn.eventCount();

      const again = await client.appendToStream(stream, events, { expectedRevision: 0n });
      expect(again).toEqual(original);
      expect(standIn.eventCount()).toBe(count);
      expect((await gather(client.readStream(stream))).map((e) => e.event?.type)).toEqual([
        'First',
        'A',
        'B',
        'Later',
      ]);
    });

    it('does the same for no_stream and for any', async () => {
      const stream = uniqueStream();
      const events = [event('A'), event('B')];
      const original = await client.appendToStream(stream, events, { expectedRevision: 'no_stream' });
      const count = standIn.eventCount();
      expect(await client.appendToStream(stream, events, { expectedRevision: 'no_stream' })).toEqual(
        original,
      );
      expect(await client.appendToStream(stream, events, { expectedRevision: 'any' })).toEqual(original);
      expect(standIn.eventCount()).toBe(count);
    });

    it('refuses the same ids at another expected revision, and ids that only partly match', async () => {
      const stream = uniqueStream();
      const a = event('A');
      const b = event('B');
      await client.appendToStream(stream, [a, b], { expectedRevision: 'no_stream' });
      await client.appendToStream(stream, event('C'));

      const elsewhere = await conflictOf(client.appendToStream(stream, [a, b], { expectedRevision: 0n }));
      expect(elsewhere.actualVersion).toBe(2n);
      const partly = await conflictOf(
        client.appendToStream(stream, [a, event('Other')], { expectedRevision: 'no_stream' }),
      );
      expect(partly.actualVersion).toBe(2n);
      const partlyAny = await conflictOf(client.appendToStream(stream, [a, event('Other')]));
      expect(partlyAny.actualVersion).toBe(2n);
      expect((await gather(client.readStream(stream))).length).toBe(3);
    });
  });

  it('keeps type, content type, created, data and custom metadata exactly', async () => {
    const stream = uniqueStream();
    const bytes = new Uint8Array([0, 255, 1, 128, 10]);
    const metadataBytes = new Uint8Array([9, 8, 7]);
    const before = Date.now();
    await client.appendToStream(stream, [
      jsonEvent({
        type: 'Json',
        data: { amount: '10.00', nested: { ok: true } },
        metadata: { causation: 'x' },
      }),
      binaryEvent({ type: 'Binary', data: bytes, metadata: metadataBytes }),
    ]);
    const after = Date.now();

    const [json, binary] = await gather(client.readStream(stream));
    expect(json?.event).toMatchObject({
      type: 'Json',
      isJson: true,
      data: { amount: '10.00', nested: { ok: true } },
      metadata: { causation: 'x' },
    });
    expect(binary?.event?.isJson).toBe(false);
    expect(Buffer.from(binary?.event?.data as Uint8Array)).toEqual(Buffer.from(bytes));
    expect(Buffer.from(binary?.event?.metadata as Uint8Array)).toEqual(Buffer.from(metadataBytes));
    const created = json?.event?.created.getTime() ?? 0;
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(after);
  });

  it('reads back the event ids it was given, in lower case as EventStoreDB does', async () => {
    const stream = uniqueStream();
    const id = randomUUID();
    await client.appendToStream(stream, event('A', {}, id.toUpperCase()));
    const [read] = await gather(client.readStream(stream));
    expect(read?.event?.id).toBe(id);
  });

  it('refuses an event id that is not a UUID and an empty stream name, writing nothing', async () => {
    const count = standIn.eventCount();
    const stream = uniqueStream();
    await expect(client.appendToStream(stream, event('A', {}, 'not-a-uuid'))).rejects.toThrow(/not a UUID/);
    await expect(client.appendToStream('', event('A'))).rejects.toThrow(/stream name is empty/);
    expect(standIn.eventCount()).toBe(count);
    await expect(gather(client.readStream(stream))).rejects.toBeInstanceOf(StreamNotFoundError);
  });
});
