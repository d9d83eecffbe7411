import { Test } from '@nestjs/testing';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { DAY_MS, DomainError, LedgerLimits, payoutStreamId } from '@payouts/domain';
import { FEED_START, PostgresEventStore } from '@payouts/event-store';
import type { EventStore } from '@payouts/event-store';
import { EVENT_STORE, READ_MODELS } from '@payouts/platform';
import {
  projectReadModels,
  READ_MODEL_SUBSCRIPTION_ID,
  READ_MODEL_TABLES,
  ReadModelClient,
} from '@payouts/read-models';
import {
  assertMoneyInvariants,
  TestDatabase,
  TestInfrastructureModule,
  testBackends,
} from '@payouts/testing';
import { countEvents } from '../../event-store/src/testing/stored-events';
import { deleteCheckpoint } from '../../event-store/src/testing/subscription-checkpoints';
import { CancelPayoutCommand } from './cancel-payout/cancel-payout.command';
import { ReserveFloatCommand, TopUpFloatCommand } from './float/float.commands';
import {
  ConfirmPayoutCommand,
  ExpirePayoutCommand,
  MarkAwaitingFloatCommand,
} from './payout-lifecycle/payout-lifecycle.commands';
import { CreatePayoutCommand, CreatePayoutInput } from './create-payout/create-payout.command';
import { CreditFundsCommand, SetLedgerLimitsCommand } from './ledger-admin/ledger-commands';
import { PayoutsModule } from './payouts.module';

const LIMITS: LedgerLimits = {
  feePerPayout: '0.50',
  minPayout: '1.00',
  maxPayout: '500.00',
  maxOpenExposure: '100000.00',
  maxPendingPerCustomer: 1000,
};

describe.each(testBackends())('payout commands on $name', (backend) => {
  let database: TestDatabase;
  let commands: CommandBus;
  let readModels: ReadModelClient;
  let store: EventStore;
  let close: () => Promise<void>;
  let accountCounter = 0;

  beforeAll(async () => {
    database = await backend.open();
    const moduleRef = await Test.createTestingModule({
      imports: [CqrsModule.forRoot(), TestInfrastructureModule.over(database.db), PayoutsModule],
    }).compile();
    await moduleRef.init();
    commands = moduleRef.get(CommandBus);
    readModels = moduleRef.get(READ_MODELS);
    store = moduleRef.get(EVENT_STORE);
    close = async () => {
      await readModels.$disconnect();
      await moduleRef.close();
    };
  });
  afterAll(async () => {
    await close();
    await database.drop();
  });

  async function fundedAccount(funds: string, limits: LedgerLimits = LIMITS): Promise<string> {
    accountCounter += 1;
    const accountId = `acct_${backend.name}_${accountCounter}`;
    await commands.execute(new SetLedgerLimitsCommand(accountId, 'sandbox', limits));
    if (funds !== '0.00')
      await commands.execute(new CreditFundsCommand(accountId, 'sandbox', funds, 'initial'));
    return accountId;
  }

  const linkPayout = (accountId: string, reference: string, amount = '10.00'): CreatePayoutInput => ({
    accountId,
    environment: 'sandbox',
    amount,
    merchantReference: reference,
    delivery: 'link',
    customerEmail: `${reference}@example.com`,
  });

  async function eventCount(): Promise<number> {
    return countEvents(store);
  }

  it('shows a created payout in the list and the balance as soon as the command returns', async () => {
    const accountId = await fundedAccount('100.00');
    const { payout } = await commands.execute(
      new CreatePayoutCommand(linkPayout(accountId, 'ryw-1', '25.00')),
    );

    const listed = await readModels.payoutListEntry.findMany({
      where: { accountId, merchantReference: 'ryw-1' },
    });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      payoutId: payout.payoutId,
      status: 'awaiting_choice',
      statusVersion: 1,
    });
    expect(listed[0]!.totalReserved.toFixed(2)).toBe('25.50');

    const balance = await assertMoneyInvariants(database.db, accountId, 'sandbox');
    expect(balance).toMatchObject({ funds_in: '100.00', available: '74.50', holds: '25.50' });
  });

  it('returns amount and fee to the balance when a payout is cancelled, and cancelling again changes nothing', async () => {
    const accountId = await fundedAccount('50.00');
    const { payout } = await commands.execute(new CreatePayoutCommand(linkPayout(accountId, 'cancel-1')));
    const cancelled = await commands.execute(new CancelPayoutCommand(accountId, 'sandbox', payout.payoutId));
    expect(cancelled).toMatchObject({ status: 'cancelled', statusVersion: 2, fundsReleased: true });

    const before = await eventCount();
    const again = await commands.execute(new CancelPayoutCommand(accountId, 'sandbox', payout.payoutId));
    expect(again).toMatchObject({ status: 'cancelled', statusVersion: 2 });
    expect(await eventCount()).toBe(before);

    const row = await readModels.payoutListEntry.findUniqueOrThrow({ where: { payoutId: payout.payoutId } });
    expect({ status: row.status, fundsReleased: row.fundsReleased }).toEqual({
      status: 'cancelled',
      fundsReleased: true,
    });
    expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
      available: '50.00',
      holds: '0.00',
    });
  });

  it('frees the money and the customer for the next create at once after a cancel, in this process or another', async () => {
    // A second module over the same database is another process: its cached ledgers are its own.
    const otherRef = await Test.createTestingModule({
      imports: [CqrsModule.forRoot(), TestInfrastructureModule.over(database.db), PayoutsModule],
    }).compile();
    await otherRef.init();
    const other = otherRef.get(CommandBus);
    try {
      // Exactly one pending payout per customer, and funds for exactly one payout.
      const accountId = await fundedAccount('10.50', { ...LIMITS, maxPendingPerCustomer: 1 });
      const first = await commands.execute(new CreatePayoutCommand(linkPayout(accountId, 'free-1')));
      // Cancelled here: the next create here must not decide on the reservation it cached.
      await commands.execute(new CancelPayoutCommand(accountId, 'sandbox', first.payout.payoutId));
      const second = await commands.execute(new CreatePayoutCommand(linkPayout(accountId, 'free-2')));
      // Cancelled by the other process: this one's cached ledger still holds the reservation,
      // and the refusal it would decide (funds, pending per customer) must be decided afresh.
      await other.execute(new CancelPayoutCommand(accountId, 'sandbox', second.payout.payoutId));
      const third = await commands.execute(
        new CreatePayoutCommand({ ...linkPayout(accountId, 'free-3'), customerEmail: 'free-2@example.com' }),
      );
      expect(third.payout.status).toBe('awaiting_choice');
      expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
        available: '0.00',
        holds: '10.50',
      });
      // A refusal that is true on fresh state is still a refusal.
      await expect(
        commands.execute(new CreatePayoutCommand(linkPayout(accountId, 'free-4'))),
      ).rejects.toMatchObject({
        code: 'insufficient_funds',
      });
    } finally {
      await otherRef.get<ReadModelClient>(READ_MODELS).$disconnect();
      await otherRef.close();
    }
  });

  describe('when another process ends the payout between its reads of the payout and the ledger', () => {
    /** The store as a slow process sees it: after one read of `streamId`, another writer runs. */
    class InterleavingStore extends PostgresEventStore {
      between: { streamId: string; run: () => Promise<unknown> } | undefined;

      override async readStream(streamId: string, options?: { fromVersion?: number }) {
        const read = await super.readStream(streamId, options);
        const between = this.between;
        if (between?.streamId === streamId) {
          this.between = undefined;
          await between.run();
        }
        return read;
      }
    }

    /** Another process, its clock `aheadMs` ahead (past payout expiry, for the worker's expiry). */
    async function slowProcess(aheadMs = 0) {
      const interleaving = new InterleavingStore(database.db);
      const ref = await Test.createTestingModule({
        imports: [
          CqrsModule.forRoot(),
          TestInfrastructureModule.over(database.db, { now: () => new Date(Date.now() + aheadMs) }),
          PayoutsModule,
        ],
      })
        .overrideProvider(EVENT_STORE)
        .useValue(interleaving)
        .compile();
      await ref.init();
      return {
        commands: ref.get(CommandBus),
        store: interleaving,
        close: async () => {
          await ref.get<ReadModelClient>(READ_MODELS).$disconnect();
          await ref.close();
        },
      };
    }

    async function cancelledHereAfterTheSlowRead(slow: { store: InterleavingStore }, reference: string) {
      const accountId = await fundedAccount('100.00');
      const { payout } = await commands.execute(new CreatePayoutCommand(linkPayout(accountId, reference)));
      slow.store.between = {
        streamId: payoutStreamId(payout.payoutId),
        run: () => commands.execute(new CancelPayoutCommand(accountId, 'sandbox', payout.payoutId)),
      };
      return { accountId, payoutId: payout.payoutId };
    }

    it('a second cancel returns the cancelled payout unchanged, and the money is released once', async () => {
      const slow = await slowProcess();
      try {
        const { accountId, payoutId } = await cancelledHereAfterTheSlowRead(slow, 'race-cancel');
        const again = await slow.commands.execute(new CancelPayoutCommand(accountId, 'sandbox', payoutId));
        expect(slow.store.between).toBeUndefined(); // the other cancel did run in between
        expect(again).toMatchObject({ status: 'cancelled', statusVersion: 2, fundsReleased: true });
        expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
          available: '100.00',
          holds: '0.00',
        });
      } finally {
        await slow.close();
      }
    });

    it('the expiry finds the payout cancelled and leaves it so, releasing nothing twice', async () => {
      const slow = await slowProcess(8 * DAY_MS);
      try {
        const { accountId, payoutId } = await cancelledHereAfterTheSlowRead(slow, 'race-expiry');
        const after = await slow.commands.execute(new ExpirePayoutCommand(payoutId));
        expect(slow.store.between).toBeUndefined();
        expect(after).toMatchObject({ status: 'cancelled', statusVersion: 2 });
        expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
          available: '100.00',
          holds: '0.00',
        });
      } finally {
        await slow.close();
      }
    });
  });

  it('rolls a confirm back whole when a row of its plan refuses (the pages seal the receiving details there)', async () => {
    const accountId = await fundedAccount('100.00');
    const { payout } = await commands.execute(new CreatePayoutCommand(linkPayout(accountId, 'seal-fails')));
    const before = await eventCount();
    await expect(
      commands.execute(
        new ConfirmPayoutCommand(payout.payoutId, 'wallet', {
          statement: 'SELECT 1 AS sealed WHERE false',
          params: [],
          whenNoRow: () => new Error('the receiving details changed'),
        }),
      ),
    ).rejects.toThrow('the receiving details changed');
    expect(await eventCount()).toBe(before);
    // The worker's job row too: still armed for expiry, not in the float queue.
    const job = await database.db.query<{ armed: boolean; accepted: boolean; wake_count: string }>(
      `SELECT expires_at IS NOT NULL AS armed, accepted_at IS NOT NULL AS accepted, wake_count::text
         FROM payout_jobs WHERE payout_id = $1`,
      [payout.payoutId],
    );
    expect(job.rows).toEqual([{ armed: true, accepted: false, wake_count: '0' }]);
    const confirmed = await commands.execute(
      new ConfirmPayoutCommand(payout.payoutId, 'wallet', { statement: 'SELECT 1 AS sealed', params: [] }),
    );
    expect(confirmed).toMatchObject({ status: 'processing', selectedMethod: 'wallet' });
  });

  it('does not let one account cancel another account’s payout', async () => {
    const owner = await fundedAccount('20.00');
    const stranger = await fundedAccount('20.00');
    const { payout } = await commands.execute(new CreatePayoutCommand(linkPayout(owner, 'owned-1')));
    await expect(
      commands.execute(new CancelPayoutCommand(stranger, 'sandbox', payout.payoutId)),
    ).rejects.toMatchObject({
      code: 'payout_not_found',
    });
    await expect(
      commands.execute(new CancelPayoutCommand(owner, 'production', payout.payoutId)),
    ).rejects.toMatchObject({
      code: 'payout_not_found',
    });
  });

  it.each([
    ['insufficient_funds', '5.00', '10.00', LIMITS],
    ['amount_out_of_range', '1000.00', '600.00', LIMITS],
    ['exposure_limit_exceeded', '1000.00', '10.00', { ...LIMITS, maxOpenExposure: '5.00' }],
    ['invalid_amount', '1000.00', '10.001', LIMITS],
  ])('refuses with %s and writes nothing', async (code, funds, amount, limits) => {
    const accountId = await fundedAccount(funds, limits as LedgerLimits);
    const before = await eventCount();
    const error = await commands
      .execute(new CreatePayoutCommand(linkPayout(accountId, `refused-${code}`, amount)))
      .catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe(code);
    expect(await eventCount()).toBe(before);
    expect(await readModels.payoutListEntry.count({ where: { accountId } })).toBe(0);
  });

  it('refuses a payout on an account whose limits were never configured', async () => {
    await expect(
      commands.execute(new CreatePayoutCommand(linkPayout('acct_unconfigured', 'nothing-1'))),
    ).rejects.toMatchObject({ code: 'limits_not_configured' });
  });

  it('keeps merchant_reference unique per account and environment, even under concurrent creates', async () => {
    const accountId = await fundedAccount('100.00');
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        commands.execute(new CreatePayoutCommand(linkPayout(accountId, 'same-ref'))),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(r.reason).toMatchObject({ code: 'duplicate_merchant_reference' });
    }
    expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
      available: '89.50',
    });
  });

  it('keeps a 191-emoji merchant_reference (too long for a readable stream id) unique too', async () => {
    const accountId = await fundedAccount('100.00');
    const reference = '\u{1F4B8}'.repeat(191);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        commands.execute(
          new CreatePayoutCommand({
            ...linkPayout(accountId, reference),
            customerEmail: 'emoji@example.com',
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(r.reason).toMatchObject({ code: 'duplicate_merchant_reference' });
    }
  });

  it('never overdraws under concurrent creates: exactly the covered payouts succeed and available ends at zero', async () => {
    // 30 payouts of 9.50 + 0.50 fee are exactly covered by 300.00; 60 are attempted at once.
    const accountId = await fundedAccount('300.00');
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        commands.execute(new CreatePayoutCommand(linkPayout(accountId, `race-${i}`, '9.50'))),
      ),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(succeeded).toHaveLength(30);
    expect(new Set(refused.map((r) => r.reason.code))).toEqual(new Set(['insufficient_funds']));
    const balance = await assertMoneyInvariants(database.db, accountId, 'sandbox');
    expect(balance).toMatchObject({ available: '0.00', holds: '300.00' });
    expect(await readModels.payoutListEntry.count({ where: { accountId } })).toBe(30);
  });

  async function dumpReadModels(): Promise<string[]> {
    const tables: string[] = [];
    for (const table of READ_MODEL_TABLES) {
      const { rows } = await database.db.query<{ dump: string }>(
        `SELECT coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '') AS dump FROM ${table} t`,
      );
      tables.push(rows[0]!.dump);
    }
    return tables;
  }

  // Before the two projection tests below, so the replay covers a payout that left the queue.
  it('lists a payout whose float was set aside after it waited for it without awaiting_float', async () => {
    const accountId = await fundedAccount('50.00');
    const { payout } = await commands.execute(
      new CreatePayoutCommand(linkPayout(accountId, 'float-queue-1')),
    );
    await commands.execute(new ConfirmPayoutCommand(payout.payoutId, 'wallet'));
    await commands.execute(new MarkAwaitingFloatCommand(payout.payoutId));
    await commands.execute(new TopUpFloatCommand('sandbox', '10.00', 'replay-test'));
    await commands.execute(new ReserveFloatCommand(payout.payoutId));
    const row = await readModels.payoutListEntry.findUniqueOrThrow({ where: { payoutId: payout.payoutId } });
    expect({ status: row.status, safeReason: row.safeReason, statusVersion: row.statusVersion }).toEqual({
      status: 'processing',
      safeReason: null,
      statusVersion: 2,
    });
  });

  it('changes nothing when every event is projected again over up-to-date read models', async () => {
    const before = await dumpReadModels();
    const all = await store.readFeed(FEED_START, 10_000);
    expect(all.length).toBeLessThan(10_000);
    await database.db.transaction((tx) => projectReadModels(tx, store, all));
    for (const event of all) await database.db.transaction((tx) => projectReadModels(tx, store, [event]));
    expect(await dumpReadModels()).toEqual(before);
  });

  it('rebuilds byte-identical read models when every event is replayed from position zero', async () => {
    const dump = dumpReadModels;
    const before = await dump();
    expect(before[0]!.length).toBeGreaterThan(0);

    for (const table of READ_MODEL_TABLES) await database.db.query(`DELETE FROM ${table}`);
    await deleteCheckpoint(database.db, READ_MODEL_SUBSCRIPTION_ID);
    const subscription = store.subscribe({
      subscriptionId: READ_MODEL_SUBSCRIPTION_ID,
      handle: (events, tx) => projectReadModels(tx, store, events),
      batchSize: 100,
      pollIntervalMs: 10,
    });
    await subscription.caughtUp();
    await subscription.stop();

    expect(await dump()).toEqual(before);
  });
});
