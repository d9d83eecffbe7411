import { randomUUID } from 'node:crypto';
import { DomainError } from '@payouts/domain';
import { PostgresEventStore, StreamAppend, StreamVersionConflictError } from '@payouts/event-store';
import { IdempotencyKeyTakenError } from '@payouts/idempotency';
import { TestDatabase, testBackends } from '@payouts/testing';
import { GroupCommit } from './group-commit';

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

describe.each(testBackends())('group commit on $name', (backend) => {
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

  async function versionOf(streamId: string): Promise<number> {
    const { rows } = await database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE stream_id = $1',
      [streamId],
    );
    return rows[0]!.n;
  }

  it('commits the appends of concurrent commands in one transaction, each with its own result', async () => {
    const groups = new GroupCommit(store);
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
    const groups = new GroupCommit(store);
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

  it('runs each member in the same transaction as its own in-transaction work', async () => {
    const groups = new GroupCommit(store);
    const seen: string[] = [];
    const ids = [unique('c'), unique('d'), unique('e')];
    await Promise.all(
      ids.map((id) =>
        groups.append([appendTo(id)], {
          alsoInTransaction: async (tx) => {
            // The member's own events are visible inside the group's transaction.
            const { rows } = await tx.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM events WHERE stream_id = $1',
              [id],
            );
            seen.push(`${id}:${rows[0]!.n}`);
          },
        }),
      ),
    );
    expect(seen.sort()).toEqual(ids.map((id) => `${id}:1`).sort());
  });

  it('gives a version conflict to its member alone: the others commit, the conflicting one writes nothing', async () => {
    const groups = new GroupCommit(store);
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
    const groups = new GroupCommit(store);
    const accepted = [unique('j'), unique('k')];
    const refused = unique('l');
    const outcomes = await Promise.allSettled([
      ...accepted.map((id) => groups.append([appendTo(id)])),
      groups.append([appendTo(refused)], {
        alsoInTransaction: () => Promise.reject(new Refusal()),
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(Refusal);
    for (const id of accepted) expect(await versionOf(id)).toBe(1);
    expect(await versionOf(refused)).toBe(0);
  });

  it('gives any other failure to every member as it is, writing nothing and appending nobody again', async () => {
    const groups = new GroupCommit(store);
    const ids = [unique('m'), unique('n'), unique('o')];
    let runs = 0;
    const failure = new Error('the database went away');
    const outcomes = await Promise.allSettled(
      ids.map((id, i) =>
        groups.append([appendTo(id)], {
          alsoInTransaction: async () => {
            runs += 1;
            if (i === 1) throw failure;
          },
        }),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBe(failure);
    }
    expect(runs).toBe(3); // once each, in the one group: nobody was appended a second time
    for (const id of ids) expect(await versionOf(id)).toBe(0);
  });

  it('never puts one stream twice in a group: the later member waits for the next and sees the first', async () => {
    const groups = new GroupCommit(store);
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
    const groups = new GroupCommit(store, { maxWeight: 4, maxInFlight: 1 });
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
