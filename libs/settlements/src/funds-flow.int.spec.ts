import { Test } from '@nestjs/testing';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { CreateOrderCommand, OrderIds, PayOrderCommand, CheckoutModule } from '@payouts/checkout';
import type { Clock } from '@payouts/clock';
import type { SqlClient } from '@payouts/database';
import {
  DAY_MS,
  DEFAULT_PRICING,
  evolveLedger,
  initialLedgerState,
  LedgerLimits,
  LedgerState,
  ledgerStreamId,
  upcastLedgerEvent,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import {
  CreatePayoutCommand,
  CreditFundsCommand,
  PayoutsModule,
  SetLedgerLimitsCommand,
} from '@payouts/payouts';
import { EVENT_STORE, READ_MODELS, SQL_CLIENT } from '@payouts/platform';
import type { ReadModelClient } from '@payouts/read-models';
import { TestDatabase, TestInfrastructureModule, testBackends } from '@payouts/testing';
import { MatureProceedsCommand } from './maturing/mature-proceeds';
import { PricingQueries, SetPricingCommand } from './pricing/account-pricing';
import { SetRetainedTargetCommand } from './retained-target/set-retained-target';
import { SETTLEMENT_RAIL, SettlementRail } from './settlement-rail/settlement-rail.port';
import { SettlementRailSettings } from './settlement-rail/simulated-settlement-rail';
import { CompleteSettlementCommand, StartSettlementCommand } from './settlement-run/settlement-commands';
import { dailySettlementId, manualSettlementId } from './settlement-run/settlement-ids';
import { SettlementRuns } from './settlement-run/settlement-runs';
import { SettlementsModule } from './settlements.module';

const LIMITS: LedgerLimits = {
  feePerPayout: '0.50',
  minPayout: '1.00',
  maxPayout: '500.00',
  maxOpenExposure: '100000.00',
  maxPendingPerCustomer: 1000,
};

describe.each(testBackends())('funds-flow commands on $name', (backend) => {
  let database: TestDatabase;
  let commands: CommandBus;
  let store: EventStore;
  let db: SqlClient;
  let runs: SettlementRuns;
  let rail: SettlementRail;
  let railSettings: SettlementRailSettings;
  let pricing: PricingQueries;
  let orderIds: OrderIds;
  let offsetMs = 0;
  // The sandbox clock: moved by the tests; production stays on real time.
  const clock: Clock = { now: (env) => new Date(Date.now() + (env === 'sandbox' ? offsetMs : 0)) };
  let close: () => Promise<void>;
  let accounts = 0;

  beforeAll(async () => {
    database = await backend.open();
    const moduleRef = await Test.createTestingModule({
      imports: [
        CqrsModule.forRoot(),
        TestInfrastructureModule.over(database.db, clock),
        PayoutsModule,
        CheckoutModule,
        SettlementsModule,
      ],
    }).compile();
    await moduleRef.init();
    commands = moduleRef.get(CommandBus);
    store = moduleRef.get(EVENT_STORE);
    db = moduleRef.get(SQL_CLIENT);
    runs = moduleRef.get(SettlementRuns);
    rail = moduleRef.get(SETTLEMENT_RAIL);
    railSettings = moduleRef.get(SettlementRailSettings);
    pricing = moduleRef.get(PricingQueries);
    orderIds = moduleRef.get(OrderIds);
    close = async () => {
      await moduleRef.get<ReadModelClient>(READ_MODELS).$disconnect();
      await moduleRef.close();
    };
  });
  afterAll(async () => {
    await close();
    await database.drop();
  });

  async function fundedLedger(funds: string): Promise<{ accountId: string; ledger: string }> {
    const accountId = `acct_funds_${backend.name}_${(accounts += 1)}`;
    await commands.execute(new SetLedgerLimitsCommand(accountId, 'sandbox', LIMITS));
    if (funds !== '0.00')
      await commands.execute(new CreditFundsCommand(accountId, 'sandbox', funds, 'initial'));
    return { accountId, ledger: ledgerStreamId(accountId, 'sandbox') };
  }

  async function ledgerState(streamId: string): Promise<LedgerState> {
    const { events } = await store.readStream(streamId);
    return events
      .map((e) => upcastLedgerEvent({ type: e.type, schemaVersion: e.schemaVersion, data: e.data }))
      .reduce(evolveLedger, initialLedgerState());
  }

  async function paidCardOrder(accountId: string, amount: string): Promise<number> {
    const orderId = await orderIds.next();
    await commands.execute(
      new CreateOrderCommand({
        orderId,
        accountId,
        environment: 'sandbox',
        region: 'US',
        method: 'card',
        amount,
        currency: 'USD',
        customer: 'payer@example.com',
        credentialId: 'cred_test',
      }),
    );
    const card = {
      kind: 'card' as const,
      number: '4242424242424242',
      expiryMonth: 12,
      expiryYear: 2099,
      securityCode: '123',
      name: 'Ana',
    };
    await commands.execute(new PayOrderCommand(orderId, card));
    return orderId;
  }

  describe('pricing', () => {
    it('answers the defaults until the operator sets a pricing', async () => {
      expect(await pricing.pricingOf('acct_never_priced', 'sandbox')).toEqual(DEFAULT_PRICING);
    });

    it('keeps the default of every method left out, and appends AccountPricingSet', async () => {
      const set = await commands.execute(
        new SetPricingCommand('acct_priced', 'production', {
          methods: { card: { percent: '3.5', fixed: '0.25' } },
          clearingDays: { mobile_wallet: 3 },
        }),
      );
      expect(set.methods.card).toEqual({ percent: '3.50', fixed: '0.25' });
      expect(set.methods.cash_app).toEqual(DEFAULT_PRICING.methods.cash_app);
      expect(set.clearingDays).toMatchObject({ card: 2, mobile_wallet: 3, cash_app: 1 });
      expect(await pricing.pricingOf('acct_priced', 'production')).toEqual(set);
      expect(await pricing.pricingOf('acct_priced', 'sandbox')).toEqual(DEFAULT_PRICING);
      const { events } = await store.readStream('pricing-acct_priced-production');
      expect(events.map((e) => e.type)).toEqual(['AccountPricingSet']);
    });

    it.each([
      [{ methods: { bitcoin: { percent: '1', fixed: '0.00' } } }, 'invalid_request', 'methods.bitcoin'],
      [{ methods: { card: { percent: '100.5', fixed: '0.00' } } }, 'invalid_request', 'methods.card.percent'],
      [{ methods: { card: { percent: '2', fixed: '0.305' } } }, 'invalid_amount', 'methods.card.fixed'],
      [{ clearingDays: { card: -1 } }, 'invalid_request', 'clearing_days.card'],
      [{ clearingDays: { card: 1.5 } }, 'invalid_request', 'clearing_days.card'],
      [{ clearingDays: { card: 31 } }, 'invalid_request', 'clearing_days.card'],
    ])('refuses %j with %s on %s, writing nothing', async (input, code, param) => {
      await expect(
        commands.execute(new SetPricingCommand('acct_refused', 'sandbox', input)),
      ).rejects.toMatchObject({
        code,
        param,
      });
      expect((await store.readStream('pricing-acct_refused-sandbox')).version).toBe(0);
    });
  });

  describe('retained target', () => {
    it('sets the retained target of a ledger and answers it with two decimals', async () => {
      const { ledger } = await fundedLedger('10.00');
      expect(await commands.execute(new SetRetainedTargetCommand(ledger, '25.5'))).toMatchObject({
        retainedTarget: '25.50',
      });
      expect((await ledgerState(ledger)).retainedTarget.toFixed(2)).toBe('25.50');
      expect(await commands.execute(new SetRetainedTargetCommand(ledger, '0'))).toMatchObject({
        retainedTarget: '0.00',
      });
    });

    it.each(['1.234', '-1.00', '1e3', ' 5', ''])(
      'refuses the malformed amount %j (invalid_amount)',
      async (amount) => {
        const { ledger } = await fundedLedger('0.00');
        await expect(commands.execute(new SetRetainedTargetCommand(ledger, amount))).rejects.toMatchObject({
          code: 'invalid_amount',
        });
      },
    );
  });

  describe('maturing', () => {
    it('clears nothing before the clearing day, then the net into available, and drops the work row', async () => {
      const { accountId, ledger } = await fundedLedger('0.00');
      await paidCardOrder(accountId, '100.00');
      expect(await commands.execute(new MatureProceedsCommand(ledger))).toEqual({ matured: 0 });
      offsetMs += 2 * DAY_MS + 1000;
      expect(await commands.execute(new MatureProceedsCommand(ledger))).toEqual({ matured: 1 });
      const state = await ledgerState(ledger);
      expect([
        state.pending.toFixed(2),
        state.available.toFixed(2),
        state.maturedProceeds.toFixed(2),
      ]).toEqual(['0.00', '96.80', '96.80']);
      const rows = await db.query('SELECT 1 FROM funds_maturing WHERE ledger_stream_id = $1', [ledger]);
      expect(rows.rows).toHaveLength(0);
    });

    it('clears at most `max` payments per command and keeps the next due time for the rest', async () => {
      const { accountId, ledger } = await fundedLedger('0.00');
      for (const amount of ['10.00', '11.00', '12.00']) await paidCardOrder(accountId, amount);
      offsetMs += 2 * DAY_MS + 1000;
      expect(await commands.execute(new MatureProceedsCommand(ledger, 2))).toEqual({ matured: 2 });
      const row = await db.query('SELECT 1 FROM funds_maturing WHERE ledger_stream_id = $1', [ledger]);
      expect(row.rows).toHaveLength(1);
      expect(await commands.execute(new MatureProceedsCommand(ledger, 2))).toEqual({ matured: 1 });
      expect((await ledgerState(ledger)).pendingPayments.size).toBe(0);
    });
  });

  describe('settlements', () => {
    it('starts a settlement of available − retained target, never touching money held for payouts', async () => {
      const { accountId, ledger } = await fundedLedger('100.00');
      await commands.execute(new SetRetainedTargetCommand(ledger, '30.00'));
      await commands.execute(
        new CreatePayoutCommand({
          accountId,
          environment: 'sandbox',
          amount: '10.00',
          merchantReference: `stl-${accountId}`,
          delivery: 'link',
          customerEmail: 'r@example.com',
        }),
      );
      const id = manualSettlementId();
      const { started } = await commands.execute(new StartSettlementCommand(ledger, id, 'manual'));
      expect(started).toMatchObject({
        settlementId: id,
        amount: '59.50',
        retainedTarget: '30.00',
        currency: 'USD',
      });
      const state = await ledgerState(ledger);
      expect([state.available.toFixed(2), state.merchantSettlementHolds.toFixed(2)]).toEqual([
        '30.00',
        '59.50',
      ]);
      const job = await db.query<{ amount: string }>(
        'SELECT amount::text AS amount FROM settlement_jobs WHERE settlement_id = $1 AND completed_at IS NULL',
        [id],
      );
      expect(job.rows).toEqual([{ amount: '59.50' }]);
    });

    it('starts nothing when less than 1.00 would be settled, or for an id already used', async () => {
      const { ledger } = await fundedLedger('0.99');
      expect(
        await commands.execute(new StartSettlementCommand(ledger, manualSettlementId(), 'manual')),
      ).toEqual({
        started: null,
      });
      const funded = await fundedLedger('5.00');
      const id = dailySettlementId(funded.ledger, '2026-01-01');
      expect(
        (await commands.execute(new StartSettlementCommand(funded.ledger, id, 'daily'))).started,
      ).not.toBeNull();
      await commands.execute(new CreditFundsCommand(funded.accountId, 'sandbox', '5.00', 'more'));
      expect(await commands.execute(new StartSettlementCommand(funded.ledger, id, 'daily'))).toEqual({
        started: null,
      });
    });

    it('completes a paid settlement once; the same answer again changes nothing; another answer is refused', async () => {
      const { ledger } = await fundedLedger('20.00');
      const id = manualSettlementId();
      await commands.execute(new StartSettlementCommand(ledger, id, 'manual'));
      expect(await commands.execute(new CompleteSettlementCommand(ledger, id, { outcome: 'paid' }))).toEqual({
        completed: true,
      });
      expect(await commands.execute(new CompleteSettlementCommand(ledger, id, { outcome: 'paid' }))).toEqual({
        completed: false,
      });
      await expect(
        commands.execute(new CompleteSettlementCommand(ledger, id, { outcome: 'failed', reason: 'x' })),
      ).rejects.toMatchObject({ code: 'invalid_transition' });
      const state = await ledgerState(ledger);
      expect([state.available.toFixed(2), state.settlementsPaid.toFixed(2)]).toEqual(['0.00', '20.00']);
      const job = await db.query(
        'SELECT 1 FROM settlement_jobs WHERE settlement_id = $1 AND completed_at IS NOT NULL',
        [id],
      );
      expect(job.rows).toHaveLength(1);
    });

    it('returns a failed settlement to available, and refuses to complete an unknown settlement', async () => {
      const { ledger } = await fundedLedger('20.00');
      const id = manualSettlementId();
      await commands.execute(new StartSettlementCommand(ledger, id, 'manual'));
      await commands.execute(
        new CompleteSettlementCommand(ledger, id, { outcome: 'failed', reason: 'closed' }),
      );
      expect((await ledgerState(ledger)).available.toFixed(2)).toBe('20.00');
      await expect(
        commands.execute(new CompleteSettlementCommand(ledger, manualSettlementId(), { outcome: 'paid' })),
      ).rejects.toMatchObject({ code: 'not_found' });
    });

    it('runs now on every ledger of the environment and pays through the rail, or returns the money on failure', async () => {
      const paid = await fundedLedger('40.00');
      const small = await fundedLedger('0.50');
      const settled = await runs.runNow('sandbox');
      const mine = settled.filter((s) => [paid.accountId, small.accountId].includes(s.accountId));
      expect(mine).toEqual([
        expect.objectContaining({
          accountId: paid.accountId,
          amount: '40.00',
          status: 'paid',
          trigger: 'manual',
        }),
      ]);
      expect((await ledgerState(paid.ledger)).settlementsPaid.toFixed(2)).toBe('40.00');

      await railSettings.setSandboxOutcome('failed');
      try {
        await commands.execute(new CreditFundsCommand(paid.accountId, 'sandbox', '12.00', 'again'));
        const failed = (await runs.runNow('sandbox')).find((s) => s.accountId === paid.accountId);
        expect(failed).toMatchObject({
          amount: '12.00',
          status: 'failed',
          failureReason: 'bank_account_closed',
        });
        const state = await ledgerState(paid.ledger);
        expect([state.available.toFixed(2), state.merchantSettlementHolds.toFixed(2)]).toEqual([
          '12.00',
          '0.00',
        ]);
      } finally {
        await railSettings.setSandboxOutcome('paid');
      }
    });

    it('completes a settlement a crash left started, asking the rail again under the same id', async () => {
      const { accountId, ledger } = await fundedLedger('15.00');
      const id = manualSettlementId();
      await commands.execute(new StartSettlementCommand(ledger, id, 'manual'));
      // The crash happened after the rail answered: its first answer stands.
      await rail.pay({
        settlementId: id,
        accountId,
        environment: 'sandbox',
        currency: 'USD',
        amount: '15.00',
      });
      await railSettings.setSandboxOutcome('failed');
      try {
        expect(await runs.completeOpen('sandbox')).toBeGreaterThanOrEqual(1);
      } finally {
        await railSettings.setSandboxOutcome('paid');
      }
      expect((await ledgerState(ledger)).closedSettlements.get(id)).toBe('paid');
    });

    it('refuses to pay one settlement id twice with other terms', async () => {
      const payment = {
        settlementId: manualSettlementId(),
        accountId: 'acct_rail',
        environment: 'production' as const,
        currency: 'USD',
        amount: '3.00',
      };
      expect(await rail.pay(payment)).toEqual({ status: 'paid' });
      expect(await rail.pay(payment)).toEqual({ status: 'paid' });
      await expect(rail.pay({ ...payment, amount: '4.00' })).rejects.toThrow(/other terms/);
    });
  });
});
