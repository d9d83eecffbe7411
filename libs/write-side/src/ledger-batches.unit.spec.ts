import { OverloadedError } from '@payouts/http';
import { DomainError } from '@payouts/domain';
import { AggregateCache } from './aggregate-cache';
import type { Committer } from './committer';
import type { Decides, Decision } from './decision';
import { LedgerBatches, LedgerBatchLimits } from './ledger-batches';
import { LedgerLocks } from './ledger-locks';

const LEDGER = 'ledger-1';

// The measured bound is `minWaiting` alone here (maxWaitSeconds 0): the test's clock stands still
// while batches commit, which would measure an endless rate.
const LIMITS: LedgerBatchLimits = {
  maxMembers: 1,
  minWaiting: 64,
  burstWaiting: 512,
  burstMs: 1000,
  maxWaitSeconds: 0,
  maxAttempts: 1,
};

class Refused extends DomainError {
  constructor() {
    super('insufficient_funds', 'refused once released');
  }
}

/**
 * Batches whose decisions wait until the test releases them, so the ledger's queue holds what
 * was submitted (its first batch is taken from it only once the ledger's lock is, a turn later); released, every member is refused (nothing to
 * commit: the committer is never reached) and the queue drains, and decisions are held again.
 * The clock is the test's.
 */
function held() {
  let now = 0;
  let release!: () => void;
  let released!: Promise<void>;
  const hold = () => (released = new Promise<void>((resolve) => (release = resolve)));
  hold();
  const handler: Decides<number, number> = {
    decide: async (): Promise<Decision<number>> => {
      await released;
      throw new Refused();
    },
  };
  const batches = new LedgerBatches(
    {} as Committer,
    new AggregateCache(),
    new LedgerLocks(),
    () => Promise.reject(new Error('nothing goes alone here')),
    LIMITS,
    () => now,
  );
  const outcomes: Promise<string>[] = [];
  const submit = (count: number) => {
    for (let i = 0; i < count; i += 1) {
      outcomes.push(
        batches.submit(LEDGER, i, handler).then(
          () => 'created',
          (error: unknown) => (error instanceof OverloadedError ? 'overloaded' : 'refused'),
        ),
      );
    }
  };
  /** Releases the held decisions and waits until every submitted command is answered. */
  const drain = async () => {
    release();
    const answers = await Promise.all(outcomes.splice(0));
    hold();
    // The ledger's drain ends a few turns after its last member is answered.
    await new Promise((resolve) => setImmediate(resolve));
    return { overloaded: answers.filter((a) => a === 'overloaded').length, answered: answers.length };
  };
  return { batches, submit, drain, later: (ms: number) => (now += ms) };
}

describe('LedgerBatches: the bound of a ledger queue', () => {
  it('lets a burst of 512 wait on a young episode though the measured bound (a cold ledger) is 64', async () => {
    const { submit, drain } = held();
    submit(600);
    expect(await drain()).toEqual({ overloaded: 88, answered: 600 });
  });

  it('falls to the measured bound after more than a second of sustained pressure, and gives the next burst 512 once the queue has drained', async () => {
    const { batches, submit, drain, later } = held();
    submit(100);
    expect(batches.admits(LEDGER)).toBe(true); // 100 waiting, the episode is young
    for (let elapsed = 0; elapsed <= 1000; elapsed += 100) {
      later(100);
      // 500 arrivals/s find the measured bound (64) taken: the pressure goes on.
      for (let i = 0; i < 50; i += 1) batches.admits(LEDGER);
    }
    expect(batches.admits(LEDGER)).toBe(false);
    submit(5);
    expect(await drain()).toEqual({ overloaded: 5, answered: 105 });

    // The queue drained: the pressure is over, and a new burst gets the floor again at once.
    later(10);
    submit(600);
    expect(await drain()).toEqual({ overloaded: 88, answered: 600 });
  });
});
