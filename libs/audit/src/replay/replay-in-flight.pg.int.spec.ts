import { LEDGER_STREAM_TYPE, ledgerStreamId } from '@payouts/domain';
import { PostgresEventStore, StreamAppend } from '@payouts/event-store';
import { projectReadModels } from '@payouts/read-models';
import { fundsFlowEvents, testBackends, TestDatabase, toNewEvent } from '@payouts/testing';
import { appendHistory, projectEverything } from '../testing/audit-history';
import { ReplayDifference } from './replay-differences';
import { replayReadModels } from './replay-read-models';

const ledgerAppend = (accountId: string): StreamAppend[] => [
  {
    streamId: ledgerStreamId(accountId, 'sandbox'),
    streamType: LEDGER_STREAM_TYPE,
    expectedVersion: 0,
    events: fundsFlowEvents(accountId).slice(0, 6).map(toNewEvent),
  },
];

// Concurrent transactions need a server: the embedded database runs one at a time.
describe.each(testBackends().filter((b) => b.name === 'postgres'))('replayReadModels on $name', (backend) => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeEach(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  it('takes every commit its snapshot saw, also one after a transaction still in flight, and none of that one', async () => {
    const logged = await appendHistory(store);
    await projectEverything(store);
    // An older transaction holds its events and inline rows uncommitted while the replay pins
    // its end; a younger one has committed by then. The younger is in the pinned log although
    // the feed's horizon (below the oldest transaction in flight) has not reached it yet.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const older = store.append(ledgerAppend('acc_older'), {
      inTransaction: async (tx, events) => {
        await projectReadModels(tx, events, { concurrentStreams: true });
        await tx.query('SELECT 1'); // every statement before it has run: the events are written
        entered();
        await gate;
      },
    });
    await inFlight;
    const younger = await store.append(ledgerAppend('acc_younger'), {
      inTransaction: (tx, events) => projectReadModels(tx, events, { concurrentStreams: true }),
    });

    const differences: ReplayDifference[] = [];
    const report = await replayReadModels(database.db, {
      batchSize: 4,
      onDifference: (difference) => differences.push(difference),
      onProgress: () => release(),
    });
    const committedLate = await older;

    const youngerEnd = younger.events[younger.events.length - 1]!;
    expect(BigInt(committedLate.events[0]!.transactionId)).toBeLessThan(BigInt(youngerEnd.transactionId));
    expect(differences).toEqual([]);
    expect(report).toMatchObject({
      events: logged + younger.events.length,
      end: { transactionId: youngerEnd.transactionId, position: youngerEnd.globalPosition },
      liveCopyEvents: younger.events.length,
      differences: 0,
    });
  });
});
