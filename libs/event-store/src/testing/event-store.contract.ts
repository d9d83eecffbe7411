import { randomInt, randomUUID } from 'node:crypto';
import { SqlClient, SqlQueryable } from '@payouts/database';
import { DuplicateEventIdError, StreamVersionConflictError } from '../errors';
import {
  AppendResult,
  EventStore,
  EVENT_STORE_LIMITS,
  FEED_START,
  FeedCheckpoint,
  FeedSnapshot,
  NewEvent,
  PendingEvent,
  RecordedEvent,
  StreamAppend,
} from '../event-store.port';
import { compareCheckpoints } from '../feed-checkpoint';

export interface EventStoreFixture {
  store: EventStore;
  /** The database behind the store, for the checks the port cannot express (raw SQL). */
  db: SqlClient;
  close(): Promise<void>;
}

export interface EventStoreTraits {
  /**
   * Several connections can hold transactions open at once (a PostgreSQL server). The embedded
   * database has one connection, so the deterministic late-commit scenario cannot be staged there.
   */
  concurrentTransactions: boolean;
  /** Writers, appends per writer and the longest time a writer holds its transaction open. */
  lateCommitLoad: { writers: number; appendsPerWriter: number; maxHoldMs: number };
  /**
   * The events live in `db` (the PostgreSQL adapter): the checks that look at the events table
   * itself run. False for a store that keeps them elsewhere (EventStoreDB).
   */
  eventsInDatabase?: boolean;
}

export const EMBEDDED_TRAITS: EventStoreTraits = {
  concurrentTransactions: false,
  lateCommitLoad: { writers: 16, appendsPerWriter: 3, maxHoldMs: 5 },
};

export const SERVER_TRAITS: EventStoreTraits = {
  concurrentTransactions: true,
  lateCommitLoad: { writers: 24, appendsPerWriter: 12, maxHoldMs: 50 },
};

/** The event store contract: every adapter that is reachable runs it (docs/design.md#event-store). */
export function describeEventStoreContract(
  name: string,
  factory: () => Promise<EventStoreFixture>,
  traits: EventStoreTraits = EMBEDDED_TRAITS,
): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStore;
    let db: SqlClient;

    beforeAll(async () => {
      fixture = await factory();
      store = fixture.store;
      db = fixture.db;
      await db.exec(`
        CREATE TABLE contract_projection (subscription_id text NOT NULL, event_id uuid NOT NULL, stream_id text NOT NULL);
        CREATE TABLE contract_inline (event_id uuid NOT NULL, stream_id text NOT NULL);
      `);
    });

    afterAll(async () => {
      await fixture?.close();
    });

    describe('append and readStream', () => {
      it('appends to a new stream and reads the same events back', async () => {
        const streamId = uniqueId('order');
        const givenId = randomUUID();
        const result = await store.append([
          {
            streamId,
            streamType: 'order',
            expectedVersion: 'no_stream',
            events: [
              {
                type: 'OrderPlaced',
                schemaVersion: 1,
                data: { amount: '10.00', lines: [1, 2] },
                eventId: givenId,
              },
              {
                type: 'OrderPaid',
                schemaVersion: 2,
                data: { paid: true },
                metadata: { correlationId: 'c-1' },
              },
              { type: 'OrderNoted', schemaVersion: 1, data: 'a note with "quotes", {braces} and ünïcödé' },
            ],
          },
        ]);

        expect(result.streams).toEqual([{ streamId, version: 3 }]);
        expect(result.events.map((e) => [e.streamVersion, e.type, e.schemaVersion])).toEqual([
          [1, 'OrderPlaced', 1],
          [2, 'OrderPaid', 2],
          [3, 'OrderNoted', 1],
        ]);
        const [first, second, third] = result.events as [RecordedEvent, RecordedEvent, RecordedEvent];
        expect(first.eventId).toBe(givenId);
        expect(second.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(first.metadata).toEqual({});
        expect(second.metadata).toEqual({ correlationId: 'c-1' });
        expect(third.data).toBe('a note with "quotes", {braces} and ünïcödé');
        expect(first.recordedAt).toBeInstanceOf(Date);
        for (const event of result.events) {
          expect(event).toMatchObject({ streamId, streamType: 'order' });
          expect(event.globalPosition).toMatch(/^[1-9][0-9]*$/);
          expect(event.transactionId).toMatch(/^[1-9][0-9]*$/);
          expect(event.checkpoint).toEqual({
            transactionId: event.transactionId,
            position: event.globalPosition,
          });
        }
        if (traits.eventsInDatabase !== false) {
          expect(new Set(result.events.map((e) => e.transactionId)).size).toBe(1);
        }
        expect(BigInt(first.globalPosition) < BigInt(second.globalPosition)).toBe(true);
        expect(BigInt(second.globalPosition) < BigInt(third.globalPosition)).toBe(true);

        await expect(store.readStream(streamId)).resolves.toEqual({ version: 3, events: result.events });
      });

      it('returns from append the same JSON a later read returns, key order included', async () => {
        const streamId = uniqueId('json');
        const data = {
          zeta: 1,
          b: { yy: [{ d: 1, c: 2 }], x: 2 },
          aa: 'x',
          é: 1,
          '10': 1,
          '9': 2,
          a: null,
          when: new Date(0),
        };
        const { events } = await store.append([
          stream(streamId, 'no_stream', [
            { type: 'Shaped', schemaVersion: 1, data, metadata: { z: 1, y: { b: 1, a: 2 } } },
          ]),
        ]);
        const [read] = (await store.readStream(streamId)).events;
        expect(JSON.stringify(events[0]?.data)).toBe(JSON.stringify(read?.data));
        expect(JSON.stringify(events[0]?.metadata)).toBe(JSON.stringify(read?.metadata));
        expect(read?.data).toEqual({ ...data, when: '1970-01-01T00:00:00.000Z' });
      });

      it('appends at the expected version and refuses a stale one with a typed error', async () => {
        const streamId = uniqueId('account');
        await store.append([stream(streamId, 'no_stream', 1)]);
        await expect(store.append([stream(streamId, 1, 2)])).resolves.toMatchObject({
          streams: [{ streamId, version: 3 }],
        });

        const stale = await store.append([stream(streamId, 1, 1)]).catch((error: unknown) => error);
        expect(stale).toBeInstanceOf(StreamVersionConflictError);
        expect(stale).toMatchObject({ streamId, expectedVersion: 1, actualVersion: 3 });
        expect((stale as Error).message).toContain(streamId);
        expect((await store.readStream(streamId)).events).toHaveLength(3);
      });

      it('refuses an expected version on a stream that does not exist', async () => {
        const streamId = uniqueId('account');
        await expect(store.append([stream(streamId, 2, 1)])).rejects.toMatchObject({
          name: 'StreamVersionConflictError',
          streamId,
          expectedVersion: 2,
          actualVersion: 0,
        });
        await expect(store.readStream(streamId)).resolves.toEqual({ version: 0, events: [] });
      });

      it("refuses 'no_stream' (and version 0, the version of a missing stream) on an existing stream", async () => {
        const streamId = uniqueId('account');
        await store.append([stream(streamId, 0, 1)]);
        await expect(store.append([stream(streamId, 'no_stream', 1)])).rejects.toMatchObject({
          streamId,
          expectedVersion: 'no_stream',
          actualVersion: 1,
        });
        await expect(store.append([stream(streamId, 0, 1)])).rejects.toBeInstanceOf(
          StreamVersionConflictError,
        );
        expect((await store.readStream(streamId)).version).toBe(1);
      });

      it("appends with 'any' whether or not the stream exists", async () => {
        const streamId = uniqueId('log');
        await expect(store.append([stream(streamId, 'any', 2)])).resolves.toMatchObject({
          streams: [{ version: 2 }],
        });
        const again = await store.append([stream(streamId, 'any', 1)]);
        expect(again.streams).toEqual([{ streamId, version: 3 }]);
        expect(again.events.map((e) => e.streamVersion)).toEqual([3]);
      });

      it('lets exactly one of several concurrent appends at the same version win', async () => {
        const streamId = uniqueId('account');
        await store.append([stream(streamId, 'no_stream', 1)]);
        const outcomes = await Promise.allSettled(
          Array.from({ length: 8 }, () => store.append([stream(streamId, 1, 2)])),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected')
            expect(outcome.reason).toBeInstanceOf(StreamVersionConflictError);
        }
        const created = uniqueId('account');
        const creations = await Promise.allSettled(
          Array.from({ length: 8 }, () => store.append([stream(created, 'no_stream', 1)])),
        );
        expect(creations.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        expect(await store.readStream(streamId)).toMatchObject({ version: 3 });
        expect(await store.readStream(created)).toMatchObject({ version: 1 });
      });

      it('writes several streams atomically: one conflict and nothing is written', async () => {
        const [a, b, c] = [uniqueId('a'), uniqueId('b'), uniqueId('c')];
        await store.append([stream(a, 'no_stream', 1)]);
        await store.append([stream(c, 'no_stream', 2)]);

        const conflict = store.append([stream(c, 1, 1), stream(a, 1, 1), stream(b, 'no_stream', 2)]);
        await expect(conflict).rejects.toMatchObject({
          name: 'StreamVersionConflictError',
          streamId: c,
          actualVersion: 2,
        });
        expect((await store.readStream(a)).version).toBe(1);
        expect((await store.readStream(b)).version).toBe(0);
        expect((await store.readStream(c)).version).toBe(2);

        const result = await store.append([stream(c, 2, 1), stream(a, 1, 2), stream(b, 'no_stream', 1)]);
        expect(result.streams).toEqual([
          { streamId: c, version: 3 },
          { streamId: a, version: 3 },
          { streamId: b, version: 1 },
        ]);
        expect(result.events).toHaveLength(4);
        // One database transaction wrote them all (another store writes stream by stream).
        if (traits.eventsInDatabase !== false) {
          expect(new Set(result.events.map((e) => e.transactionId)).size).toBe(1);
        }
        expectInFeedOrder(result.events);
      });

      it('names the first stream in stream-id order when several of an append conflict', async () => {
        const [a, b] = [uniqueId('first-a'), uniqueId('first-b')];
        await store.append([stream(a, 'no_stream', 1), stream(b, 'no_stream', 1)]);
        // Given in the other order; both steps fail.
        const conflict = store.append([stream(b, 5, 1), stream(a, 'no_stream', 1)]);
        await expect(conflict).rejects.toMatchObject({ name: 'StreamVersionConflictError', streamId: a });
        expect((await store.readStream(b)).version).toBe(1);
      });

      it('appends many streams of every expected-version kind at once, each numbered after its own version', async () => {
        const ids = Array.from({ length: 30 }, (_, i) => uniqueId(`many-${String(i).padStart(2, '0')}`));
        // Every third stream exists at version 2 beforehand.
        await store.append(ids.filter((_, i) => i % 3 === 0).map((id) => stream(id, 'no_stream', 2)));
        const kinds = ids.map((id, i) =>
          i % 3 === 0
            ? stream(id, 2, (i % 4) + 1)
            : stream(id, i % 3 === 1 ? 'no_stream' : 'any', (i % 4) + 1),
        );
        const result = await store.append(kinds);
        expect(result.streams).toEqual(
          ids.map((id, i) => ({ streamId: id, version: (i % 3 === 0 ? 2 : 0) + (i % 4) + 1 })),
        );
        for (const [i, id] of ids.entries()) {
          const read = await store.readStream(id);
          expect(read.events.map((e) => e.streamVersion)).toEqual(
            Array.from({ length: read.version }, (_, v) => v + 1),
          );
          const appended = result.events.filter((e) => e.streamId === id);
          expect(appended.map((e) => e.eventId)).toEqual(
            read.events.slice(-((i % 4) + 1)).map((e) => e.eventId),
          );
        }
        // One database transaction wrote them all (another store writes stream by stream).
        if (traits.eventsInDatabase !== false) {
          expect(new Set(result.events.map((e) => e.transactionId)).size).toBe(1);
        }
        expectInFeedOrder(result.events);
      });

      it('writes nothing, no gap and no hook row, when a later stream of many conflicts', async () => {
        const [a, b, c] = [uniqueId('gap-a'), uniqueId('gap-b'), uniqueId('gap-c')];
        await store.append([stream(c, 'no_stream', 1)]);
        for (const expected of ['no_stream', 5] as const) {
          const attempt = store.append(
            [stream(a, 'no_stream', 3), stream(b, 'any', 2), stream(c, expected, 2)],
            {
              inTransaction: (tx, events) => insertInline(tx, events),
            },
          );
          await expect(attempt).rejects.toMatchObject({ name: 'StreamVersionConflictError', streamId: c });
        }
        for (const id of [a, b]) expect(await store.readStream(id)).toEqual({ version: 0, events: [] });
        expect(await inlineRows(db, a)).toBe(0);
        const after = await store.append([stream(a, 'no_stream', 1), stream(c, 1, 1)]);
        expect(after.streams).toEqual([
          { streamId: a, version: 1 },
          { streamId: c, version: 2 },
        ]);
      });

      it('reads a stream from a version', async () => {
        const streamId = uniqueId('payout');
        await store.append([stream(streamId, 'no_stream', 5)]);
        const tail = await store.readStream(streamId, { fromVersion: 3 });
        expect(tail.version).toBe(5);
        expect(tail.events.map((e) => e.streamVersion)).toEqual([3, 4, 5]);
        await expect(store.readStream(streamId, { fromVersion: 6 })).resolves.toEqual({
          version: 5,
          events: [],
        });
        await expect(store.readStream(uniqueId('missing'), { fromVersion: 2 })).resolves.toEqual({
          version: 0,
          events: [],
        });
      });

      it('reads a stream up to a version, and a range of it', async () => {
        const streamId = uniqueId('payout');
        await store.append([stream(streamId, 'no_stream', 5)]);
        const head = await store.readStream(streamId, { toVersion: 2 });
        expect(head.version).toBe(5);
        expect(head.events.map((e) => e.streamVersion)).toEqual([1, 2]);
        const middle = await store.readStream(streamId, { fromVersion: 2, toVersion: 4 });
        expect(middle.events.map((e) => e.streamVersion)).toEqual([2, 3, 4]);
        expect((await store.readStream(streamId, { toVersion: 0 })).events).toEqual([]);
        expect((await store.readStream(streamId, { toVersion: 99 })).events).toHaveLength(5);
        await expect(store.readStream(streamId, { toVersion: -1 })).rejects.toBeInstanceOf(RangeError);
      });

      it('keeps event ids unique across the store', async () => {
        const eventId = randomUUID();
        const [a, b] = [uniqueId('a'), uniqueId('b')];
        await store.append([
          stream(a, 'no_stream', [{ type: 'Happened', schemaVersion: 1, data: {}, eventId }]),
        ]);
        const duplicate = await store
          .append([stream(b, 'no_stream', [{ type: 'Happened', schemaVersion: 1, data: {}, eventId }])])
          .catch((error: unknown) => error);
        expect(duplicate).toBeInstanceOf(DuplicateEventIdError);
        expect(duplicate).toMatchObject({ eventId });
        const twice = { type: 'Happened', schemaVersion: 1, data: {}, eventId: randomUUID() };
        await expect(store.append([stream(b, 'no_stream', [twice, twice])])).rejects.toBeInstanceOf(
          DuplicateEventIdError,
        );
        expect((await store.readStream(b)).version).toBe(0);
      });

      it('refuses malformed appends before writing anything', async () => {
        const streamId = uniqueId('bad');
        await expect(store.append([])).rejects.toBeInstanceOf(RangeError);
        await expect(store.append([stream(streamId, 'no_stream', [])])).rejects.toBeInstanceOf(RangeError);
        await expect(store.append([stream(streamId, -1, 1)])).rejects.toBeInstanceOf(RangeError);
        await expect(
          store.append([stream(streamId, 'any', 1), stream(streamId, 'any', 1)]),
        ).rejects.toBeInstanceOf(RangeError);
        const notUuid = { type: 'Happened', schemaVersion: 1, data: {}, eventId: 'not-a-uuid' };
        await expect(store.append([stream(streamId, 'any', [notUuid])])).rejects.toBeInstanceOf(RangeError);
        const noData = { type: 'Happened', schemaVersion: 1, data: undefined };
        await expect(store.append([stream(streamId, 'any', [noData])])).rejects.toBeInstanceOf(TypeError);
        expect((await store.readStream(streamId)).version).toBe(0);
      });

      // The events table's own guard; another store keeps its events elsewhere.
      if (traits.eventsInDatabase !== false) {
        it('refuses to update or delete a stored event', async () => {
          const streamId = uniqueId('fact');
          const { events } = await store.append([stream(streamId, 'no_stream', 1)]);
          const eventId = events[0]?.eventId;
          await expect(
            db.query(`UPDATE events SET event_type = 'Edited' WHERE event_id = $1`, [eventId]),
          ).rejects.toThrow(/append-only/);
          await expect(db.query('DELETE FROM events WHERE event_id = $1', [eventId])).rejects.toThrow(
            /append-only/,
          );
          expect((await store.readStream(streamId)).events[0]?.type).toBe('Happened0');
        });
      }

      it('runs the inTransaction hook in the append transaction; a throwing hook writes nothing', async () => {
        const streamId = uniqueId('inline');
        const result = await store.append([stream(streamId, 'no_stream', 2)], {
          inTransaction: async (tx, events) => {
            if (traits.eventsInDatabase !== false) {
              // The events are visible inside the transaction, before the commit.
              const seen = await tx.query<{ n: number }>(
                'SELECT count(*)::integer AS n FROM events WHERE stream_id = $1',
                [streamId],
              );
              expect(seen.rows[0]?.n).toBe(2);
            }
            await insertInline(tx, events);
          },
        });
        expect(await inlineRows(db, streamId)).toBe(2);
        expect(result.streams).toEqual([{ streamId, version: 2 }]);

        const failing = uniqueId('inline');
        const hookError = new Error('projection refused');
        await expect(
          store.append([stream(failing, 'no_stream', 2)], {
            inTransaction: async (tx, events) => {
              await insertInline(tx, events);
              throw hookError;
            },
          }),
        ).rejects.toBe(hookError);
        expect(await inlineRows(db, failing)).toBe(0);
        await expect(store.readStream(failing)).resolves.toEqual({ version: 0, events: [] });
      });

      it('hands the hook the events as they will be written, and a conflicting append writes none of its rows', async () => {
        const streamId = uniqueId('inline-pending');
        const first = await store.append([stream(streamId, 'no_stream', 2)]);
        let seen: PendingEvent[] = [];
        const result = await store.append([stream(streamId, 2, 2)], {
          inTransaction: async (tx, events) => {
            seen = events;
            await insertInline(tx, events);
          },
        });
        expect(seen.map((e) => [e.streamId, e.streamVersion, e.eventId])).toEqual(
          result.events.map((e) => [e.streamId, e.streamVersion, e.eventId]),
        );
        expect(seen.map((e) => e.data)).toEqual(result.events.map((e) => e.data));
        expect(first.streams[0]?.version).toBe(2);

        // The hook's statements may travel with the append's; the append's conflict must still win
        // and take them back, whether the hook then succeeds or fails.
        for (const hookFails of [false, true]) {
          await expect(
            store.append([stream(streamId, 2, 1)], {
              inTransaction: async (tx, events) => {
                await insertInline(tx, events);
                if (hookFails) throw new Error('hook failed after the conflict');
              },
            }),
          ).rejects.toBeInstanceOf(StreamVersionConflictError);
        }
        expect(await inlineRows(db, streamId)).toBe(2);
        expect((await store.readStream(streamId)).version).toBe(4);
      });
    });

    describe('global feed', () => {
      it('returns committed events in feed order and resumes after any checkpoint', async () => {
        const prefix = uniqueId('feed');
        const [a, b, c] = [`${prefix}-a`, `${prefix}-b`, `${prefix}-c`];
        const appended: RecordedEvent[] = [];
        appended.push(...(await store.append([stream(a, 'no_stream', 3)])).events);
        appended.push(...(await store.append([stream(b, 'no_stream', 1), stream(c, 'no_stream', 2)])).events);
        appended.push(...(await store.append([stream(a, 3, 1)])).events);
        appended.push(...(await store.append([stream(b, 1, 4)])).events);

        const all = (await readWholeFeed(store, FEED_START, 1000)).filter((e) =>
          e.streamId.startsWith(prefix),
        );
        expect(all.map((e) => e.eventId)).toEqual(appended.map((e) => e.eventId));
        expectInFeedOrder(all);

        const paged = (await readWholeFeed(store, FEED_START, 3)).filter((e) =>
          e.streamId.startsWith(prefix),
        );
        expect(paged).toEqual(all);

        const middle = all[4] as RecordedEvent;
        const resumed = (await readWholeFeed(store, middle.checkpoint, 2)).filter((e) =>
          e.streamId.startsWith(prefix),
        );
        expect(resumed.map((e) => e.eventId)).toEqual(all.slice(5).map((e) => e.eventId));
        const last = all[all.length - 1] as RecordedEvent;
        expect(
          (await store.readFeed(last.checkpoint, 100)).filter((e) => e.streamId.startsWith(prefix)),
        ).toEqual([]);
      });

      it('refuses a page size outside its limits and a malformed checkpoint', async () => {
        await expect(store.readFeed(FEED_START, 0)).rejects.toBeInstanceOf(RangeError);
        await expect(store.readFeed(FEED_START, 1_000_000)).rejects.toBeInstanceOf(RangeError);
        await expect(
          store.readFeed({ transactionId: '1; DROP TABLE events', position: '0' }, 10),
        ).rejects.toBeInstanceOf(RangeError);
      });

      it('hands out recorded_at with its microseconds, as the database keeps it, in the feed and to subscribers', async () => {
        const streamId = uniqueId('micros');
        const start = await feedEnd(store);
        await store.append([stream(streamId, 'no_stream', 2)]);
        const [read] = await feedUntil(store, start, (e) => e.streamId === streamId, 2);
        if (traits.eventsInDatabase !== false) {
          const { rows } = await db.query<{ at: string }>(
            `SELECT to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
               FROM events WHERE global_position = $1::bigint`,
            [read!.globalPosition],
          );
          expect(read!.recordedAtMicros).toBe(rows[0]!.at);
        }
        expect(read!.recordedAtMicros).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
        expect(read!.recordedAt.toISOString().slice(0, 23)).toBe(read!.recordedAtMicros!.slice(0, 23));

        const handed: (string | undefined)[] = [];
        const subscription = store.subscribe({
          subscriptionId: uniqueId('micros-reader'),
          pollIntervalMs: 10,
          handle: async (events) => {
            for (const e of events) if (e.streamId === streamId) handed.push(e.recordedAtMicros);
          },
        });
        try {
          await subscription.caughtUp();
        } finally {
          await subscription.stop();
        }
        expect(handed).toHaveLength(2);
        expect(handed[0]).toBe(read!.recordedAtMicros);
        expect(handed[1]).toMatch(/\.\d{6}Z$/);
      });

      it('finds the feed place of an event by its global position', async () => {
        const { events } = await store.append([stream(uniqueId('at'), 'no_stream', 2)]);
        for (const event of events) {
          expect(await store.checkpointAt(event.globalPosition)).toEqual(event.checkpoint);
        }
        const last = BigInt(events[events.length - 1]!.globalPosition);
        expect(await store.checkpointAt(String(last + 1_000_000n))).toBeNull();
        for (const malformed of ['0', '-1', '1.5', '01', 'x', '99999999999999999999']) {
          await expect(store.checkpointAt(malformed)).rejects.toBeInstanceOf(RangeError);
        }
      });
    });

    describe('the feed as of a snapshot', () => {
      it('reads exactly the events committed for a snapshot, whatever is appended after it', async () => {
        const prefix = uniqueId('asof');
        const [a, b] = [`${prefix}-a`, `${prefix}-b`];
        await store.append([stream(a, 'no_stream', 3)]);
        const snapshot = await store.feedSnapshot();
        const pinned = await readWholeFeedAsOf(store, snapshot, FEED_START, 2);
        expect(snapshot.head).toEqual(pinned[pinned.length - 1]?.checkpoint);
        expectInFeedOrder(pinned);
        const mine = pinned.filter((e) => e.streamId.startsWith(prefix));
        expect(mine.map((e) => [e.streamId, e.streamVersion])).toEqual([
          [a, 1],
          [a, 2],
          [a, 3],
        ]);

        await store.append([stream(b, 'no_stream', 2)]);
        await store.append([stream(a, 3, 1)]);
        expect(await readWholeFeedAsOf(store, snapshot, FEED_START, 1000)).toEqual(pinned);
        const middle = pinned.indexOf(mine[1]!);
        expect(await store.readFeed(mine[1]!.checkpoint, 1000, { asOf: snapshot })).toEqual(
          pinned.slice(middle + 1),
        );
        // The same events as the live feed hands out, field for field.
        const live = await feedUntil(store, FEED_START, (e) => e.streamId.startsWith(prefix), 6);
        expect(live.slice(0, 3)).toEqual(mine);
        expect((await store.feedSnapshot()).head).toEqual(live[live.length - 1]!.checkpoint);
      });

      it("takes a snapshot inside a transaction the caller holds, as that transaction's reads see the feed", async () => {
        const streamId = uniqueId('asof-within');
        await store.append([stream(streamId, 'no_stream', 1)]);
        const subscriptionId = uniqueId('asof-checkpoint');
        const { snapshot, checkpoint } = await db.transaction(async (tx) => {
          await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
          const taken = await store.feedSnapshot({ within: tx });
          if (traits.concurrentTransactions) {
            // Committed on another connection after the snapshot: not in the transaction's moment.
            await store.append([stream(streamId, 1, 1)]);
            expect(await store.feedSnapshot({ within: tx })).toEqual(taken);
          }
          return { snapshot: taken, checkpoint: await store.loadCheckpoint(subscriptionId, { within: tx }) };
        });
        expect(checkpoint).toEqual(FEED_START);
        const pinned = (await readWholeFeedAsOf(store, snapshot, FEED_START, 1000)).filter(
          (e) => e.streamId === streamId,
        );
        expect(pinned.map((e) => e.streamVersion)).toEqual([1]);
      });

      it('refuses a snapshot it did not hand out', async () => {
        for (const token of ['', 'x', '1:2:3;', '10:5', "1:2:'"]) {
          const asOf: FeedSnapshot = { token, head: null };
          await expect(store.readFeed(FEED_START, 10, { asOf })).rejects.toBeInstanceOf(RangeError);
        }
      });
    });

    describe('several streams at once', () => {
      it('reads ranges of several streams in one call, in the order given, each in version order', async () => {
        const prefix = uniqueId('ranges');
        const [a, b, c] = [`${prefix}-a`, `${prefix}-b`, `${prefix}-c`];
        await store.append([stream(a, 'no_stream', 3), stream(b, 'no_stream', 4), stream(c, 'no_stream', 2)]);
        const read = await store.readStreams([
          { streamId: b, fromVersion: 2, toVersion: 3 },
          { streamId: `${prefix}-missing`, fromVersion: 1, toVersion: 5 },
          { streamId: a, fromVersion: 1, toVersion: 2 },
          { streamId: c, fromVersion: 3, toVersion: 9 },
        ]);
        const expected = [
          ...(await store.readStream(b, { fromVersion: 2, toVersion: 3 })).events,
          ...(await store.readStream(a, { toVersion: 2 })).events,
        ];
        expect(read.map((e) => [e.streamId, e.streamVersion])).toEqual([
          [b, 2],
          [b, 3],
          [a, 1],
          [a, 2],
        ]);
        expect(read).toEqual(expected);
      });

      it('refuses no ranges, too many, a stream given twice and a bad version', async () => {
        const range = { streamId: 'x', fromVersion: 1, toVersion: 2 };
        const many = Array.from({ length: EVENT_STORE_LIMITS.maxStreamsPerRead + 1 }, (_, i) => ({
          ...range,
          streamId: `x-${i}`,
        }));
        for (const ranges of [
          [],
          many,
          [range, range],
          [{ ...range, fromVersion: -1 }],
          [{ ...range, toVersion: 1.5 }],
        ]) {
          await expect(store.readStreams(ranges)).rejects.toBeInstanceOf(RangeError);
        }
      });
    });

    describe("reading inside a subscriber's transaction", () => {
      it('reads a stream within the transaction a subscription handler holds, without waiting on it', async () => {
        const subscriptionId = uniqueId('reader');
        const streamId = uniqueId('read-within');
        await store.append([stream(streamId, 'no_stream', 3)]);
        const read: number[][] = [];
        const subscription = store.subscribe({
          subscriptionId,
          pollIntervalMs: 10,
          handle: async (events, tx) => {
            if (!events.some((event) => event.streamId === streamId)) return;
            const { events: stored } = await store.readStream(streamId, { toVersion: 2, within: tx });
            read.push(stored.map((event) => event.streamVersion));
          },
        });
        try {
          await subscription.caughtUp();
        } finally {
          await subscription.stop();
        }
        expect(read).toEqual([[1, 2]]);
      });

      it('reads ranges of streams, a checkpoint and a feed snapshot within that transaction too', async () => {
        const subscriptionId = uniqueId('reader');
        const streamId = uniqueId('read-within');
        await store.append([stream(streamId, 'no_stream', 3)]);
        const seen: unknown[] = [];
        // Where the batch before this one ended: the checkpoint this transaction sees.
        let before = FEED_START;
        const subscription = store.subscribe({
          subscriptionId,
          pollIntervalMs: 10,
          handle: async (events, tx) => {
            if (events.some((event) => event.streamId === streamId)) {
              const ranges = await store.readStreams([{ streamId, fromVersion: 2, toVersion: 3 }], {
                within: tx,
              });
              const checkpoint = await store.loadCheckpoint(subscriptionId, { within: tx });
              const snapshot = await store.feedSnapshot({ within: tx });
              seen.push(
                ranges.map((event) => event.streamVersion),
                checkpoint,
                before,
                snapshot.head !== null,
              );
            }
            before = events[events.length - 1]!.checkpoint;
          },
        });
        try {
          await subscription.caughtUp();
        } finally {
          await subscription.stop();
        }
        expect(seen).toEqual([[2, 3], seen[2], seen[2], true]);
      });
    });

    describe('streams of a type', () => {
      it('pages through the ids of one type in code point order, after a given id', async () => {
        const streamType = uniqueId('category');
        const ids = ['b-2', 'a-10', 'a-9', 'B-1', 'ä-1'].map((id) => `${streamType}-${id}`);
        for (const id of ids) await store.append([{ ...stream(id, 'no_stream', 1), streamType }]);
        await store.append([stream(uniqueId('other-type'), 'no_stream', 1)]);
        const sorted = [...ids].sort(byCodePoints);
        expect(await store.streamIds(streamType, { limit: 100 })).toEqual(sorted);
        const pages: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await store.streamIds(streamType, { after, limit: 2 });
          pages.push(...page);
          if (page.length < 2) break;
          after = page[page.length - 1];
        }
        expect(pages).toEqual(sorted);
        expect(await store.streamIds(uniqueId('no-such-type'), { limit: 10 })).toEqual([]);
      });

      it('refuses a page size outside its limits', async () => {
        await expect(store.streamIds('test', { limit: 0 })).rejects.toBeInstanceOf(RangeError);
        await expect(store.streamIds('test', { limit: 1_000_000 })).rejects.toBeInstanceOf(RangeError);
      });
    });

    describe('subscription lag', () => {
      it('counts the committed events a subscription has not processed, up to a cap', async () => {
        const subscriptionId = uniqueId('lagging');
        const before = await store.subscriptionLag(subscriptionId, 10_000);
        await store.append([stream(uniqueId('lag'), 'no_stream', 4)]);
        expect(await store.subscriptionLag(subscriptionId, 10_000)).toBe(Math.min(before + 4, 10_000));
        expect(await store.subscriptionLag(subscriptionId, 2)).toBe(2);
        const subscription = store.subscribe({
          subscriptionId,
          handle: () => Promise.resolve(),
          pollIntervalMs: 10,
        });
        try {
          await subscription.caughtUp();
          expect(await store.subscriptionLag(subscriptionId, 10_000)).toBe(0);
        } finally {
          await subscription.stop();
        }
        await expect(store.subscriptionLag(subscriptionId, 0)).rejects.toBeInstanceOf(RangeError);
      });
    });

    describe('durable subscriptions', () => {
      it('commits the handler writes with the checkpoint and resumes from it after a restart', async () => {
        const subscriptionId = uniqueId('projection');
        const streamId = uniqueId('sub');
        await store.append([stream(streamId, 'no_stream', 5)]);
        await expect(store.loadCheckpoint(subscriptionId)).resolves.toEqual(FEED_START);

        const first = store.subscribe({
          subscriptionId,
          batchSize: 2,
          handle: (events, tx) => project(tx, subscriptionId, events),
        });
        await first.caughtUp();
        await first.stop();
        const stored = await store.loadCheckpoint(subscriptionId);
        expect(stored).toEqual(first.checkpoint);
        const feed = await readWholeFeed(store, FEED_START, 1000);
        expect(stored).toEqual(feed[feed.length - 1]?.checkpoint);
        expect(await projectedRows(db, subscriptionId, streamId)).toEqual({ rows: 5, distinct: 5 });

        await store.append([stream(streamId, 5, 3)]);
        const batches: RecordedEvent[][] = [];
        const second = store.subscribe({
          subscriptionId,
          handle: async (events, tx) => {
            batches.push(events);
            await project(tx, subscriptionId, events);
          },
        });
        await second.caughtUp();
        await second.stop();
        // It resumed after the stored checkpoint: only the three new events came.
        expect(batches.flat().map((e) => e.streamVersion)).toEqual([6, 7, 8]);
        expect(compareCheckpoints(second.checkpoint, stored)).toBeGreaterThan(0);
        expect(await projectedRows(db, subscriptionId, streamId)).toEqual({ rows: 8, distinct: 8 });
      });

      it('rolls a failing batch back, records the error, and retries it after a backoff', async () => {
        const subscriptionId = uniqueId('flaky');
        const streamId = uniqueId('flaky');
        const warmup = store.subscribe({
          subscriptionId,
          handle: (events, tx) => project(tx, subscriptionId, events),
        });
        await warmup.caughtUp();
        await warmup.stop();
        const before = await store.loadCheckpoint(subscriptionId);
        await store.append([stream(streamId, 'no_stream', 3)]);

        let attempts = 0;
        const failure = new Error('read model unavailable');
        const subscription = store.subscribe({
          subscriptionId,
          handle: async (events, tx) => {
            await project(tx, subscriptionId, events);
            if (events.some((e) => e.streamId === streamId) && ++attempts <= 2) throw failure;
          },
        });
        await waitUntil(() => subscription.lastError !== null);
        expect(subscription.lastError).toBe(failure);
        // The batch was rolled back: neither its writes nor its checkpoint were kept.
        expect(await projectedRows(db, subscriptionId, streamId)).toEqual({ rows: 0, distinct: 0 });
        await expect(store.loadCheckpoint(subscriptionId)).resolves.toEqual(before);

        await subscription.caughtUp();
        expect(attempts).toBe(3);
        expect(subscription.lastError).toBeNull();
        expect(await projectedRows(db, subscriptionId, streamId)).toEqual({ rows: 3, distinct: 3 });
        await subscription.stop();
      });

      it('lets processes that share a subscription id take turns, each event processed once', async () => {
        const subscriptionId = uniqueId('shared');
        const streamId = uniqueId('shared');
        const handle = (events: RecordedEvent[], tx: SqlQueryable): Promise<void> =>
          project(tx, subscriptionId, events);
        const one = store.subscribe({ subscriptionId, batchSize: 3, pollIntervalMs: 5, handle });
        const two = store.subscribe({ subscriptionId, batchSize: 3, pollIntervalMs: 5, handle });
        for (let version = 0; version < 30; version += 3) {
          await store.append([stream(streamId, version === 0 ? 'no_stream' : version, 3)]);
        }
        await Promise.all([one.caughtUp(), two.caughtUp()]);
        await Promise.all([one.stop(), two.stop()]);
        expect(await projectedRows(db, subscriptionId, streamId)).toEqual({ rows: 30, distinct: 30 });
      });

      it('stops when its abort signal fires', async () => {
        const controller = new AbortController();
        const subscription = store.subscribe({
          subscriptionId: uniqueId('aborted'),
          handle: async () => undefined,
          signal: controller.signal,
        });
        await subscription.caughtUp();
        controller.abort();
        await subscription.stop();
        await expect(subscription.caughtUp()).rejects.toThrow(/stopped/);
      });
    });

    describe('late commits', () => {
      it('never lets a feed reader skip an event committed late, nor see a rolled-back one', async () => {
        const { writers, appendsPerWriter, maxHoldMs } = traits.lateCommitLoad;
        const prefix = uniqueId('late');
        const committed = new Set<string>();
        const rolledBack = new Set<string>();
        const subscriptionId = `${prefix}-projection`;
        const delivered: string[] = [];
        const subscription = store.subscribe({
          subscriptionId,
          pollIntervalMs: 5,
          handle: async (events, tx) => {
            const own = events.filter((e) => e.streamId.startsWith(prefix));
            await project(tx, subscriptionId, own);
            delivered.push(...own.map((e) => e.eventId));
          },
        });

        let writersDone = false;
        const follower = followFeed(store, () => writersDone);
        // A reader that checkpoints on the global position alone, to show the load is hostile.
        const naive = traits.concurrentTransactions ? followByPosition(db, prefix, () => writersDone) : null;
        await Promise.all(
          Array.from({ length: writers }, async (_, writer) => {
            const streamId = `${prefix}-w${writer}`;
            let version = 0;
            for (let i = 0; i < appendsPerWriter; i += 1) {
              const events = newEvents(randomInt(1, 4));
              const rollBack = randomInt(0, 5) === 0;
              const hold = randomInt(0, 4) !== 0 || rollBack;
              try {
                const result = await store.append(
                  [stream(streamId, version === 0 ? 'no_stream' : version, events)],
                  hold
                    ? {
                        inTransaction: async () => {
                          await sleep(randomInt(0, maxHoldMs + 1));
                          if (rollBack) throw new RollBack();
                        },
                      }
                    : {},
                );
                version = result.streams[0]?.version ?? version;
                for (const event of events) committed.add(event.eventId as string);
              } catch (error) {
                if (!(error instanceof RollBack)) throw error;
                for (const event of events) rolledBack.add(event.eventId as string);
              }
            }
          }),
        );
        writersDone = true;
        if (naive) {
          const { seen, total } = await naive;
          // Events committed late behind a higher position: the naive reader skipped them.
          expect(total - seen).toBeGreaterThan(0);
          expect(total).toBe(committed.size);
        }

        const followed = (await follower).filter((e) => e.streamId.startsWith(prefix));
        expectInFeedOrder(followed);
        expectExactly(
          followed.map((e) => e.eventId),
          committed,
          rolledBack,
        );

        await subscription.caughtUp();
        await subscription.stop();
        expectExactly(delivered, committed, rolledBack);
        const projected = await db.query<{ event_id: string }>(
          'SELECT event_id::text AS event_id FROM contract_projection WHERE subscription_id = $1',
          [subscriptionId],
        );
        expectExactly(
          projected.rows.map((row) => row.event_id),
          committed,
          rolledBack,
        );
        expect(committed.size).toBeGreaterThan(0);
      });

      if (traits.concurrentTransactions) {
        it('reports a deadlock between two appends to the one the database aborted as a version conflict', async () => {
          const prefix = uniqueId('deadlock');
          const [rowA, rowB] = [randomUUID(), randomUUID()];
          await db.query(
            'INSERT INTO contract_inline (event_id, stream_id) VALUES ($1::uuid, $3), ($2::uuid, $3)',
            [rowA, rowB, `${prefix}-rows`],
          );
          const lock = (tx: SqlQueryable, row: string) =>
            tx.query('UPDATE contract_inline SET stream_id = stream_id WHERE event_id = $1::uuid', [row]);
          let lockedA!: () => void;
          let lockedB!: () => void;
          const aHolds = new Promise<void>((resolve) => (lockedA = resolve));
          const bHolds = new Promise<void>((resolve) => (lockedB = resolve));
          // Each hook locks its own row, waits for the other's, then reaches for the other's row.
          const outcomes = await Promise.allSettled([
            store.append([stream(`${prefix}-a`, 'no_stream', 1)], {
              inTransaction: async (tx) => {
                await lock(tx, rowA);
                lockedA();
                await bHolds;
                await lock(tx, rowB);
              },
            }),
            store.append([stream(`${prefix}-b`, 'no_stream', 1)], {
              inTransaction: async (tx) => {
                await lock(tx, rowB);
                lockedB();
                await aHolds;
                await lock(tx, rowA);
              },
            }),
          ]);
          const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
          expect(failed).toHaveLength(1);
          expect(failed[0]?.reason).toBeInstanceOf(StreamVersionConflictError);
          // The loser wrote nothing, so retrying it (load, decide, append again) is safe.
          const versions = await Promise.all(
            ['a', 'b'].map(async (id) => (await store.readStream(`${prefix}-${id}`)).version),
          );
          expect(versions.sort()).toEqual([0, 1]);
        });

        it('holds back an event committed after a later-positioned one until the earlier transaction ends', async () => {
          const prefix = uniqueId('held');
          const start = await feedEnd(store);
          let release!: () => void;
          const gate = new Promise<void>((resolve) => (release = resolve));
          let inserted!: () => void;
          const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));

          // Writer A takes its transaction id and position first, then waits before committing. The
          // hook may start before the append's statements are answered (they are pipelined); its
          // own statement runs after them, so once it answered, A's event is in.
          const slow = store.append([stream(`${prefix}-slow`, 'no_stream', 1)], {
            inTransaction: async (tx) => {
              await tx.query('SELECT 1');
              inserted();
              await gate;
            },
          });
          await insertedSignal;
          // Whatever the checks find, A must end: its open transaction would hold back the feed of
          // every later test on this server.
          let fast: AppendResult;
          try {
            // Writer B commits meanwhile, with a later transaction id and a later position.
            fast = await store.append([stream(`${prefix}-fast`, 'no_stream', 1)]);

            // A reader ordering by position alone would take B now and later skip A.
            const byPosition = await db.query<{ stream_id: string }>(
              'SELECT stream_id FROM events WHERE starts_with(stream_id, $1) ORDER BY global_position',
              [prefix],
            );
            expect(byPosition.rows.map((row) => row.stream_id)).toEqual([`${prefix}-fast`]);
            // The feed holds B back while A is in flight.
            expect((await store.readFeed(start, 100)).filter((e) => e.streamId.startsWith(prefix))).toEqual(
              [],
            );
          } finally {
            release();
          }
          const slowResult = await slow;
          const feed = (await store.readFeed(start, 100)).filter((e) => e.streamId.startsWith(prefix));
          expect(feed.map((e) => e.eventId)).toEqual([
            slowResult.events[0]?.eventId,
            fast.events[0]?.eventId,
          ]);
          expect(
            BigInt(slowResult.events[0]?.globalPosition ?? 0) < BigInt(fast.events[0]?.globalPosition ?? 0),
          ).toBe(true);
        });

        it('puts in a snapshot an event committed behind a transaction in flight, and never that transaction’s', async () => {
          const prefix = uniqueId('pinned');
          let release!: () => void;
          const gate = new Promise<void>((resolve) => (release = resolve));
          let inserted!: () => void;
          const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));
          const slow = store.append([stream(`${prefix}-slow`, 'no_stream', 1)], {
            inTransaction: async (tx) => {
              await tx.query('SELECT 1');
              inserted();
              await gate;
            },
          });
          await insertedSignal;
          let snapshot: FeedSnapshot;
          let fast: AppendResult;
          try {
            fast = await store.append([stream(`${prefix}-fast`, 'no_stream', 1)]);
            snapshot = await store.feedSnapshot();
            // The live feed holds the committed event back behind the one in flight; the snapshot has it.
            expect(
              (await store.readFeed(FEED_START, 10_000)).filter((e) => e.streamId.startsWith(prefix)),
            ).toEqual([]);
            const pinned = await readWholeFeedAsOf(store, snapshot, FEED_START, 1000);
            expect(pinned.filter((e) => e.streamId.startsWith(prefix)).map((e) => e.eventId)).toEqual([
              fast.events[0]!.eventId,
            ]);
            expect(snapshot.head).toEqual(pinned[pinned.length - 1]!.checkpoint);
          } finally {
            release();
          }
          await slow;
          const after = await readWholeFeedAsOf(store, snapshot, FEED_START, 1000);
          expect(after.filter((e) => e.streamId.startsWith(prefix)).map((e) => e.eventId)).toEqual([
            fast.events[0]!.eventId,
          ]);
        });
      }
    });
  });
}

class RollBack extends Error {}

function uniqueId(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}`;
}

function newEvents(count: number): NewEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    type: `Happened${i}`,
    schemaVersion: 1,
    data: { index: i, amount: `${i}.00` },
    eventId: randomUUID(),
  }));
}

function stream(
  streamId: string,
  expectedVersion: StreamAppend['expectedVersion'],
  events: number | NewEvent[],
): StreamAppend {
  return {
    streamId,
    streamType: 'test',
    expectedVersion,
    events: typeof events === 'number' ? newEvents(events) : events,
  };
}

/** Code point order (what the ids' COLLATE "C" gives on PostgreSQL), not UTF-16's. */
function byCodePoints(a: string, b: string): number {
  const [x, y] = [[...a].map((c) => c.codePointAt(0)!), [...b].map((c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function expectInFeedOrder(events: readonly RecordedEvent[]): void {
  for (let i = 1; i < events.length; i += 1) {
    const [before, after] = [events[i - 1] as RecordedEvent, events[i] as RecordedEvent];
    expect(compareCheckpoints(before.checkpoint, after.checkpoint)).toBeLessThan(0);
  }
}

/** Every committed id exactly once, and nothing else (so no rolled-back id). */
function expectExactly(
  seen: readonly string[],
  committed: ReadonlySet<string>,
  rolledBack: ReadonlySet<string>,
): void {
  expect(seen.filter((id) => rolledBack.has(id))).toEqual([]);
  expect(seen.length).toBe(new Set(seen).size);
  expect(new Set(seen)).toEqual(committed);
}

async function readWholeFeed(
  store: EventStore,
  after: FeedCheckpoint,
  pageSize: number,
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let checkpoint = after; ;) {
    const page = await store.readFeed(checkpoint, pageSize);
    const last = page[page.length - 1];
    if (!last) return events;
    events.push(...page);
    checkpoint = last.checkpoint;
  }
}

async function readWholeFeedAsOf(
  store: EventStore,
  asOf: FeedSnapshot,
  after: FeedCheckpoint,
  pageSize: number,
): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let checkpoint = after; ;) {
    const page = await store.readFeed(checkpoint, pageSize, { asOf });
    const last = page[page.length - 1];
    if (!last) return events;
    events.push(...page);
    checkpoint = last.checkpoint;
  }
}

/**
 * The feed after `after` once it holds `count` events that match: it hands an event out only when
 * no older transaction is in flight anywhere on the server, which another test's may be.
 */
async function feedUntil(
  store: EventStore,
  after: FeedCheckpoint,
  matches: (event: RecordedEvent) => boolean,
  count: number,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = (await readWholeFeed(store, after, 1000)).filter(matches);
    if (found.length >= count || Date.now() > deadline) return found;
    await sleep(25);
  }
}

async function feedEnd(store: EventStore): Promise<FeedCheckpoint> {
  const feed = await readWholeFeed(store, FEED_START, 1000);
  return feed[feed.length - 1]?.checkpoint ?? FEED_START;
}

/** A reader that polls readFeed with its own checkpoint until the writers are done and it has read everything. */
async function followFeed(store: EventStore, writersDone: () => boolean): Promise<RecordedEvent[]> {
  const seen: RecordedEvent[] = [];
  let checkpoint = FEED_START;
  for (;;) {
    const finished = writersDone(); // read before the query: then an empty page means the end
    const page = await store.readFeed(checkpoint, 50);
    const last = page[page.length - 1];
    if (last) {
      seen.push(...page);
      checkpoint = last.checkpoint;
    } else if (finished) {
      return seen;
    } else {
      await sleep(2);
    }
  }
}

/** Reads events above the highest position seen so far, as a reader without transaction ids would. */
async function followByPosition(
  db: SqlQueryable,
  prefix: string,
  writersDone: () => boolean,
): Promise<{ seen: number; total: number }> {
  let seen = 0;
  let position = '0';
  while (!writersDone()) {
    const { rows } = await db.query<{ position: string }>(
      `SELECT global_position::text AS position FROM events
       WHERE global_position > $1::bigint AND starts_with(stream_id, $2) ORDER BY events.global_position`,
      [position, prefix],
    );
    seen += rows.length;
    position = rows[rows.length - 1]?.position ?? position;
    await sleep(1);
  }
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM events WHERE starts_with(stream_id, $1)',
    [prefix],
  );
  return { seen, total: rows[0]?.n ?? 0 };
}

async function project(
  tx: SqlQueryable,
  subscriptionId: string,
  events: readonly RecordedEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `INSERT INTO contract_projection (subscription_id, event_id, stream_id)
     SELECT $1, e.event_id::uuid, e.stream_id FROM unnest($2::text[], $3::text[]) AS e(event_id, stream_id)`,
    [subscriptionId, events.map((e) => e.eventId), events.map((e) => e.streamId)],
  );
}

async function projectedRows(
  db: SqlQueryable,
  subscriptionId: string,
  streamId: string,
): Promise<{ rows: number; distinct: number }> {
  const { rows } = await db.query<{ rows: number; distinct: number }>(
    `SELECT count(*)::integer AS rows, count(DISTINCT event_id)::integer AS distinct
     FROM contract_projection WHERE subscription_id = $1 AND stream_id = $2`,
    [subscriptionId, streamId],
  );
  return rows[0] ?? { rows: 0, distinct: 0 };
}

async function insertInline(tx: SqlQueryable, events: readonly PendingEvent[]): Promise<void> {
  for (const event of events) {
    await tx.query('INSERT INTO contract_inline (event_id, stream_id) VALUES ($1::uuid, $2)', [
      event.eventId,
      event.streamId,
    ]);
  }
}

async function inlineRows(db: SqlQueryable, streamId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM contract_inline WHERE stream_id = $1',
    [streamId],
  );
  return rows[0]?.n ?? 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}
