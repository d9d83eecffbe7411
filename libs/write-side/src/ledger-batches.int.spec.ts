import { randomUUID } from 'node:crypto';
import { OverloadedError } from '@payouts/http';
import { Aggregate, DomainError } from '@payouts/domain';
import { EventStore, PostgresEventStore } from '@payouts/event-store';
import { TestDatabase, testBackends } from '@payouts/testing';
import { AggregateCache } from './aggregate-cache';
import { Committer } from './committer';
import type { Decides, Decision, GivenStates } from './decision';
import { LedgerBatches, LedgerBatchLimits } from './ledger-batches';
import { LedgerLocks } from './ledger-locks';
import { WritePath } from './write-path';

/** A stream type no projection reads, so only the batches' own work touches the database. */
const STREAM_TYPE = 'ledger-batch-test';

interface Take {
  readonly ledgerId: string;
  /** The stream the command creates beside the ledger (a payout's, say); two takes may share one. */
  readonly itemId: string;
}

interface Counter {
  readonly taken: number;
}

/** A ledger stand-in: each event takes one unit. */
const COUNTER: Aggregate<{ type: string }, Counter> = {
  streamType: 'counter',
  initial: () => ({ taken: 0 }),
  evolve: (state) => ({ taken: state.taken + 1 }),
  upcast: (stored) => ({ type: stored.type }),
};

class OutOfUnits extends DomainError {
  constructor() {
    super('insufficient_funds', 'no units left');
  }
}

class ItemTaken extends DomainError {
  constructor() {
    super('duplicate_merchant_reference', 'item exists');
  }
}

/**
 * A toy ledger of `capacity` units: each take reserves one and creates its item stream, as a
 * create reserves funds and creates its payout. Its decisions follow the Decides contract exactly
 * as the create handler does (trusted cache first, given state in a batch, fresh reads later).
 */
class TakeHandler implements Decides<Take, number> {
  readonly firstAttemptOptimistic = true;

  constructor(
    private readonly store: EventStore,
    private readonly cache: AggregateCache,
    private readonly capacity: number,
  ) {}

  batchesOn(command: Take): string {
    return command.ledgerId;
  }

  async decide(command: Take, attempt: number, given?: GivenStates): Promise<Decision<number>> {
    const ledger =
      (given?.get(command.ledgerId) as { state: Counter; version: number } | undefined) ??
      (await this.cache.load(this.store, command.ledgerId, COUNTER, { trustCached: attempt === 1 }));
    if (attempt > 1 && (await this.store.readStream(command.itemId)).version > 0) throw new ItemTaken();
    if (ledger.state.taken >= this.capacity) throw new OutOfUnits();
    const unit = ledger.state.taken + 1;
    const event = { type: 'Taken', schemaVersion: 1, data: { unit } };
    return {
      plan: {
        appends: [
          {
            streamId: command.ledgerId,
            streamType: STREAM_TYPE,
            expectedVersion: ledger.version,
            events: [event],
          },
          {
            streamId: command.itemId,
            streamType: STREAM_TYPE,
            expectedVersion: 'no_stream',
            events: [event],
          },
        ],
        rows: [],
      },
      result: unit,
      cached: [{ streamId: command.ledgerId, state: { taken: unit }, version: ledger.version + 1 }],
    };
  }
}

describe.each(testBackends())('ledger batches on $name', (backend) => {
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

  function writePath(capacity: number) {
    const cache = new AggregateCache();
    const path = new WritePath(new Committer(store, database.db), cache, new LedgerLocks());
    const handler = new TakeHandler(store, cache, capacity);
    return { take: (command: Take) => path.execute(command, handler), cache };
  }

  async function ledgerRows(ledgerId: string) {
    const { events } = await store.readStream(ledgerId);
    return events.map((event) => ({ version: event.streamVersion, transaction: event.transactionId }));
  }

  it('decides concurrent commands on one ledger together and commits them in one append, refusing exactly those the state cannot cover', async () => {
    const { take } = writePath(8);
    const ledgerId = `ledger-${randomUUID()}`;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, () => take({ ledgerId, itemId: `item-${randomUUID()}` })),
    );
    const units = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(units.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(refusals).toHaveLength(4);
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(OutOfUnits);
    const rows = await ledgerRows(ledgerId);
    expect(rows.map((row) => row.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(rows.map((row) => row.transaction)).size).toBe(1);
  });

  it('commits alone, after the batch, a command whose item another member of the batch writes', async () => {
    const { take } = writePath(10);
    const ledgerId = `ledger-${randomUUID()}`;
    const shared = `item-${randomUUID()}`;
    const outcomes = await Promise.allSettled([
      take({ ledgerId, itemId: `item-${randomUUID()}` }),
      take({ ledgerId, itemId: shared }),
      take({ ledgerId, itemId: shared }),
      take({ ledgerId, itemId: `item-${randomUUID()}` }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(ItemTaken);
    expect((await ledgerRows(ledgerId)).map((row) => row.version)).toEqual([1, 2, 3]);
  });

  it('decides the whole batch again on fresh state when another process wrote the ledger since the cache', async () => {
    const { take } = writePath(5);
    const ledgerId = `ledger-${randomUUID()}`;
    await take({ ledgerId, itemId: `item-${randomUUID()}` }); // the cache now holds version 1
    await store.append([
      {
        streamId: ledgerId,
        streamType: STREAM_TYPE,
        expectedVersion: 1,
        events: [{ type: 'Taken', schemaVersion: 1, data: { unit: 2 } }],
      },
    ]);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => take({ ledgerId, itemId: `item-${randomUUID()}` })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value)).toEqual([3, 4, 5]);
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(2);
    expect((await ledgerRows(ledgerId)).map((row) => row.version)).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses at once, as overloaded and with nothing started, the commands past the bound of its queue', async () => {
    const cache = new AggregateCache();
    // No burst allowance above the bound (burstWaiting 3): this test is about the bound itself.
    const limits: LedgerBatchLimits = {
      maxMembers: 1,
      minWaiting: 3,
      burstWaiting: 3,
      burstMs: 1000,
      maxWaitSeconds: 0,
      maxAttempts: 3,
    };
    const handler = new TakeHandler(store, cache, 100);
    const locks = new LedgerLocks();
    const batches = new LedgerBatches(
      new Committer(store, database.db),
      cache,
      locks,
      () => {
        throw new Error('nothing goes alone here');
      },
      limits,
    );
    const ledgerId = `ledger-${randomUUID()}`;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        batches.submit(ledgerId, { ledgerId, itemId: `item-${randomUUID()}` }, handler),
      ),
    );
    expect(outcomes.slice(0, 3).map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    for (const outcome of outcomes.slice(3)) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(OverloadedError);
    }
    expect((await ledgerRows(ledgerId)).map((row) => row.version)).toEqual([1, 2, 3]);
    // The queue is open again once it has drained.
    await expect(
      batches.submit(ledgerId, { ledgerId, itemId: `item-${randomUUID()}` }, handler),
    ).resolves.toBe(4);
  });
});
