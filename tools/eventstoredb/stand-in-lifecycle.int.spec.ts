// The stand-in's life through the real client: persistence across a restart, an outage and the
// recovery on the same port, and holdAppends (including a writer killed between two appends).
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  binaryEvent,
  CancelledError,
  type EventStoreDBClient,
  StreamNotFoundError,
  UnavailableError,
} from '@eventstore/db-client';
import { startStandIn, type StandIn } from './stand-in-server';
import {
  clientOf,
  event,
  gather,
  SubscriptionRecorder,
  removeTemporaryDataDirs,
  temporaryDataDir,
  typesOf,
  uniqueStream,
} from './testing/stand-in-client';

async function eventually(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('EventStoreDB stand-in: lifecycle', () => {
  const running: StandIn[] = [];
  const clients: EventStoreDBClient[] = [];
  const start = async (options?: Parameters<typeof startStandIn>[0]): Promise<StandIn> => {
    const standIn = await startStandIn(options);
    running.push(standIn);
    return standIn;
  };
  const connect = (standIn: StandIn): EventStoreDBClient => {
    const client = clientOf(standIn);
    clients.push(client);
    return client;
  };

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
    await Promise.all(running.splice(0).map((standIn) => standIn.stop()));
  });

  afterAll(removeTemporaryDataDirs);

  describe('persistence', () => {
    it('keeps every event, revision, position and byte across a restart on the same data directory', async () => {
      const dataDir = temporaryDataDir();
      const first = await start({ dataDir });
      const stream = uniqueStream();
      await connect(first).appendToStream(stream, [event('A', { n: 1 }), event('B')]);
      await connect(first).appendToStream(
        'other',
        binaryEvent({ type: 'Bin', data: new Uint8Array([0, 1, 255]) }),
      );
      const before = await gather(connect(first).readAll());
      await first.stop();

      const second = await start({ dataDir });
      expect(second.eventCount()).toBe(3);
      const client = connect(second);
      expect(await gather(client.readAll())).toEqual(before);

      const next = await client.appendToStream(stream, event('C'), { expectedRevision: 1n });
      expect(next.nextExpectedRevision).toBe(2n);
      expect(next.position!.commit > before[2]!.event!.position!.commit).toBe(true);
      expect(typesOf(await gather(client.readStream(stream)))).toEqual(['A', 'B', 'C']);
    });

    it('drops an append torn by a crash (a last line without its newline) and goes on appending', async () => {
      const dataDir = temporaryDataDir();
      const first = await start({ dataDir });
      await connect(first).appendToStream('s', event('Whole'));
      await first.stop();
      appendFileSync(join(dataDir, 'events.ndjson'), '[{"streamName":"s","revision":1,"posi');

      const second = await start({ dataDir });
      expect(second.eventCount()).toBe(1);
      await connect(second).appendToStream('s', event('After'), { expectedRevision: 0n });
      await second.stop();
      const lines = readFileSync(join(dataDir, 'events.ndjson'), 'utf8').split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((line) => (JSON.parse(line) as Array<{ type: string }>)[0]?.type)).toEqual([
        'Whole',
        'After',
      ]);

      const third = await start({ dataDir });
      expect(typesOf(await gather(connect(third).readStream('s')))).toEqual(['Whole', 'After']);
    });

    it('starts empty after a restart without a data directory', async () => {
      const first = await start();
      await connect(first).appendToStream('s', event('A'));
      await first.stop();
      const second = await start({ port: first.port });
      expect(second.eventCount()).toBe(0);
      await expect(gather(connect(second).readStream('s'))).rejects.toBeInstanceOf(StreamNotFoundError);
    });
  });

  describe('outage', () => {
    it('makes the client fail with UnavailableError while stopped, and work again after a restart on the same port', async () => {
      const dataDir = temporaryDataDir();
      const first = await start({ dataDir });
      const client = connect(first);
      await client.appendToStream('s', event('Before'));
      await first.stop();

      await expect(client.appendToStream('s', event('During'))).rejects.toBeInstanceOf(UnavailableError);
      await expect(gather(client.readStream('s'))).rejects.toBeInstanceOf(UnavailableError);

      const second = await start({ port: first.port, dataDir });
      expect(second.connectionString).toBe(first.connectionString);
      await client.appendToStream('s', event('After'), { expectedRevision: 0n });
      expect(typesOf(await gather(client.readStream('s')))).toEqual(['Before', 'After']);
    });

    it('ends an open subscription with CancelledError when it stops', async () => {
      const standIn = await start();
      const client = connect(standIn);
      const subscription = SubscriptionRecorder.start(() => client.subscribeToAll());
      await subscription.until((r) => r.items.some((item) => item.kind === 'caughtUp'));
      await standIn.stop();
      await subscription.until((r) => r.error !== undefined);
      expect(subscription.error).toBeInstanceOf(CancelledError);
    });
  });

  describe('holdAppends', () => {
    it('keeps matching appends unanswered until released, while others go through', async () => {
      const standIn = await start();
      const client = connect(standIn);
      const hold = standIn.holdAppends((stream) => stream.startsWith('held-'));
      let answered = false;
      const held = client.appendToStream('held-1', event('Held')).then((result) => {
        answered = true;
        return result;
      });
      await eventually(() => hold.waiting === 1);
      await client.appendToStream('free-1', event('Free'));
      expect(answered).toBe(false);
      expect(standIn.eventCount()).toBe(1);

      hold.release();
      expect((await held).nextExpectedRevision).toBe(0n);
      expect(typesOf(await gather(client.readStream('held-1')))).toEqual(['Held']);
      await client.appendToStream('held-2', event('NoLongerHeld'));
    });

    it('drops a held append whose writer was killed: only the first of its two appends is written', async () => {
      const standIn = await start();
      const hold = standIn.holdAppends((stream) => stream === 'writer-second');
      const writer = spawn(
        process.execPath,
        [
          '-e',
          `const { EventStoreDBClient, jsonEvent } = require('@eventstore/db-client');
           const client = EventStoreDBClient.connectionString(process.argv[1]);
           (async () => {
             await client.appendToStream('writer-first', jsonEvent({ type: 'First', data: {} }));
             await client.appendToStream('writer-second', jsonEvent({ type: 'Second', data: {} }));
           })();`,
          standIn.connectionString,
        ],
        { cwd: process.cwd(), stdio: 'ignore' },
      );
      const exited = new Promise((resolve) => writer.once('exit', resolve));
      await eventually(() => hold.waiting === 1, 15_000);
      writer.kill('SIGKILL');
      await exited;
      await eventually(() => hold.waiting === 0);
      hold.release();

      const client = connect(standIn);
      expect(typesOf(await gather(client.readStream('writer-first')))).toEqual(['First']);
      await expect(gather(client.readStream('writer-second'))).rejects.toBeInstanceOf(StreamNotFoundError);
      expect(standIn.eventCount()).toBe(1);
    });
  });
});
