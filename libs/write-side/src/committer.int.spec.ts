import { randomUUID } from 'node:crypto';
import { DomainError } from '@payouts/domain';
import { PostgresEventStore, StreamAppend, StreamVersionConflictError } from '@payouts/event-store';
import { IdempotencyKeyTakenError } from '@payouts/idempotency';
import { TestDatabase, testBackends } from '@payouts/testing';
import { STREAM_HOLDS_EVENTS_SQL } from '../../event-store/src/testing/stored-events';
import { Committer } from './committer';
import type { GroupingLimits } from './grouping-queue';
import type { PlannedRow } from './planned-row';

/** A stream type no projection reads, so only the group's own work touches the database. */
const STREAM_TYPE = 'group-commit-test';

const appendTo = (streamId: string, expectedVersion: StreamAppend['expectedVersion'] = 'no_stream') => ({
  streamId,
  streamType: STREAM_TYPE,
  expectedVersion,
  events: [{ type: 'Noted', schemaVersion: 1, data: { streamId } }],
});

class Refused extends DomainError {
  constructor() {
    super('balance_unavailable', 'refused by a projection');
  }
}

describe.each(testBackends())('the committer, grouping plans, on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
  });
  afterAll(async () => {
    await store.close();
    await database.drop();
  });

  const unique = (name: string) => `${name}-${randomUUID()}`;

  /** A committer taking plans in groups, as the write path's first attempts do. */
  const grouped = (limits?: GroupingLimits) => {
    const committer = new Committer(store, database.db, limits);
    return {
      append: (appends: StreamAppend[], rows: PlannedRow[] = []) =>
        committer.commit({ appends, rows }, { grouped: true }),
      get waiting() {
        return committer.waiting;
      },
    };
  };

  /** The stream's events as stored: as many as its version, none when nothing was written. */
  async function versionOf(streamId: string): Promise<number> {
    return (await store.readStream(streamId)).events.length;
  }

  it('commits the appends of concurrent commands in one transaction, each with its own result', async () => {
    const groups = grouped();
    const streams = Array.from({ length: 6 }, (_, i) => [unique(`a${i}`), unique(`b${i}`)] as const);
    const results = await Promise.all(streams.map(([a, b]) => groups.append([appendTo(a), appendTo(b)])));

    const transactions = new Set(results.flatMap((result) => result.events.map((e) => e.transactionId)));
    expect(transactions.size).toBe(1);
    results.forEach((result, i) => {
      const [a, b] = streams[i]!;
      expect(result.streams).toEqual([
        { streamId: a, version: 1 },
        { streamId: b, version: 1 },
      ]);
      expect(result.events.map((e) => e.streamId).sort()).toEqual([a, b].sort());
    });
  });

  it("answers each member its own streams' events, several a stream, in global position order", async () => {
    const groups = grouped();
    // Stream ids that sort against the order given, so the store writes them in another order.
    const members = Array.from({ length: 5 }, (_, i) => [unique(`z${i}`), unique(`m${i}`)] as const);
    const results = await Promise.all(
      members.map(([z, m]) =>
        groups.append([
          {
            ...appendTo(z),
            events: [1, 2, 3].map((n) => ({ type: 'Noted', schemaVersion: 1, data: { n } })),
          },
          appendTo(m),
        ]),
      ),
    );
    const everyEvent = results.flatMap((result) => result.events);
    expect(new Set(everyEvent.map((e) => e.transactionId)).size).toBe(1);
    results.forEach((result, i) => {
      const [z, m] = members[i]!;
      expect(result.streams).toEqual([
        { streamId: z, version: 3 },
        { streamId: m, version: 1 },
      ]);
      const positions = result.events.map((e) => BigInt(e.globalPosition));
      expect(positions).toEqual([...positions].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
      expect(result.events.map((e) => [e.streamId, e.streamVersion]).sort()).toEqual(
        [
          [z, 1],
          [z, 2],
          [z, 3],
          [m, 1],
        ].sort(),
      );
    });
  });

  it("writes each plan's rows in the same transaction as its events", async () => {
    const groups = grouped();
    const ids = [unique('c'), unique('d'), unique('e')];
    await Promise.all(
      ids.map((id) =>
        groups.append(
          [appendTo(id)],
          [
            {
              // The plan's own events are visible inside the group's transaction.
              statement: STREAM_HOLDS_EVENTS_SQL,
              params: [id, 1],
              whenNoRow: () => new Error(`${id} not visible to its own row`),
            },
          ],
        ),
      ),
    );
    for (const id of ids) expect(await versionOf(id)).toBe(1);
  });

  it('gives a version conflict to its member alone: the others commit, the conflicting one writes nothing', async () => {
    const groups = grouped();
    const taken = unique('taken');
    await store.append([appendTo(taken)]);
    const fresh = [unique('f'), unique('g'), unique('h')];
    const conflicted = unique('i');

    const outcomes = await Promise.allSettled([
      ...fresh.map((id) => groups.append([appendTo(id)])),
      // Two streams: its fresh one must not be written when the other conflicts.
      groups.append([appendTo(conflicted), appendTo(taken, 'no_stream')]),
    ]);

    expect(outcomes.slice(0, 3).map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const last = outcomes[3]!;
    expect(last.status).toBe('rejected');
    expect((last as PromiseRejectedResult).reason).toBeInstanceOf(StreamVersionConflictError);
    for (const id of fresh) expect(await versionOf(id)).toBe(1);
    expect(await versionOf(conflicted)).toBe(0);
    expect(await versionOf(taken)).toBe(1);
  });

  it.each([
    ['a refusal', Refused],
    ['a OneWriterRefusal (an Idempotency-Key taken meanwhile)', IdempotencyKeyTakenError],
  ])('gives %s raised inside the transaction to its member alone', async (_, Refusal) => {
    const groups = grouped();
    const accepted = [unique('j'), unique('k')];
    const refused = unique('l');
    const outcomes = await Promise.allSettled([
      ...accepted.map((id) => groups.append([appendTo(id)])),
      groups.append(
        [appendTo(refused)],
        [{ statement: 'SELECT 1 AS refused WHERE false', params: [], whenNoRow: () => new Refusal() }],
      ),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(Refusal);
    for (const id of accepted) expect(await versionOf(id)).toBe(1);
    expect(await versionOf(refused)).toBe(0);
  });

  it('gives any other failure to every member as it is, writing nothing and appending nobody again', async () => {
    const groups = grouped();
    const ids = [unique('m'), unique('n'), unique('o')];
    const outcomes = await Promise.allSettled(
      ids.map((id, i) =>
        groups.append([appendTo(id)], i === 1 ? [{ statement: 'SELECT 1 / 0 AS failed', params: [] }] : []),
      ),
    );
    const reasons = outcomes.map((outcome) => {
      expect(outcome.status).toBe('rejected');
      return String((outcome as PromiseRejectedResult).reason);
    });
    expect(new Set(reasons).size).toBe(1); // the one failure, as it is, to every member
    expect(reasons[0]).toMatch(/division by zero/);
    for (const id of ids) expect(await versionOf(id)).toBe(0);
  });

  it('never puts one stream twice in a group: the later member waits for the next and sees the first', async () => {
    const groups = grouped();
    const shared = unique('p');
    const other = unique('q');
    const [first, second, third] = await Promise.all([
      groups.append([appendTo(shared)]),
      groups.append([appendTo(shared, 1)]),
      groups.append([appendTo(other)]),
    ]);
    expect(first.streams).toEqual([{ streamId: shared, version: 1 }]);
    expect(second.streams).toEqual([{ streamId: shared, version: 2 }]);
    expect(third.streams).toEqual([{ streamId: other, version: 1 }]);
    expect(second.events[0]!.transactionId).not.toBe(first.events[0]!.transactionId);
    expect(third.events[0]!.transactionId).toBe(first.events[0]!.transactionId);
  });

  it('keeps a group within its stream bound and its groups in flight within theirs', async () => {
    const groups = grouped({ maxWeight: 4, maxInFlight: 1 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => groups.append([appendTo(unique('r')), appendTo(unique('s'))])),
    );
    const perTransaction = new Map<string, number>();
    for (const result of results) {
      const tx = result.events[0]!.transactionId;
      perTransaction.set(tx, (perTransaction.get(tx) ?? 0) + result.streams.length);
    }
    expect(Math.max(...perTransaction.values())).toBeLessThanOrEqual(4);
    expect([...perTransaction.values()].reduce((a, b) => a + b, 0)).toBe(20);
    expect(groups.waiting).toBe(0);
  });
});
