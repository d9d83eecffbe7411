import { DAY_MS, DEFAULT_PRICING } from '@payouts/domain';
import { testBackends } from '@payouts/testing';
import { FundsTestApp, openFundsTestApp } from './testing/funds-test-app';
import { MatureProceedsCommand } from './maturing/mature-proceeds';
import { SetPricingCommand } from './pricing/account-pricing';
import { SetRetainedTargetCommand } from './retained-target/set-retained-target';

describe.each(testBackends())('pricing, retained target and maturing on $name', (backend) => {
  let app: FundsTestApp;

  beforeAll(async () => {
    app = await openFundsTestApp(backend);
  });
  afterAll(() => app.close());

  describe('pricing', () => {
    it('answers the defaults until the operator sets a pricing', async () => {
      expect(await app.pricing.pricingOf('acct_never_priced', 'sandbox')).toEqual(DEFAULT_PRICING);
    });

    it('keeps the default of every method left out, and appends AccountPricingSet', async () => {
      const set = await app.commands.execute(
        new SetPricingCommand('acct_priced', 'production', {
          methods: { card: { percent: '3.5', fixed: '0.25' } },
          clearingDays: { mobile_wallet: 3 },
        }),
      );
      expect(set.methods.card).toEqual({ percent: '3.50', fixed: '0.25' });
      expect(set.methods.cash_app).toEqual(DEFAULT_PRICING.methods.cash_app);
      expect(set.clearingDays).toMatchObject({ card: 2, mobile_wallet: 3, cash_app: 1 });
      expect(await app.pricing.pricingOf('acct_priced', 'production')).toEqual(set);
      expect(await app.pricing.pricingOf('acct_priced', 'sandbox')).toEqual(DEFAULT_PRICING);
      const { events } = await app.store.readStream('pricing-acct_priced-production');
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
        app.commands.execute(new SetPricingCommand('acct_refused', 'sandbox', input)),
      ).rejects.toMatchObject({
        code,
        param,
      });
      expect((await app.store.readStream('pricing-acct_refused-sandbox')).version).toBe(0);
    });
  });

  describe('retained target', () => {
    it('sets the retained target of a ledger and answers it with two decimals', async () => {
      const { ledger } = await app.fundedLedger('10.00');
      expect(await app.commands.execute(new SetRetainedTargetCommand(ledger, '25.5'))).toMatchObject({
        retainedTarget: '25.50',
      });
      expect((await app.ledgerState(ledger)).retainedTarget.toFixed(2)).toBe('25.50');
      expect(await app.commands.execute(new SetRetainedTargetCommand(ledger, '0'))).toMatchObject({
        retainedTarget: '0.00',
      });
    });

    it.each(['1.234', '-1.00', '1e3', ' 5', ''])(
      'refuses the malformed amount %j (invalid_amount)',
      async (amount) => {
        const { ledger } = await app.fundedLedger('0.00');
        await expect(
          app.commands.execute(new SetRetainedTargetCommand(ledger, amount)),
        ).rejects.toMatchObject({
          code: 'invalid_amount',
        });
      },
    );
  });

  describe('maturing', () => {
    it('clears nothing before the clearing day, then the net into available, and drops the work row', async () => {
      const { accountId, ledger } = await app.fundedLedger('0.00');
      await app.paidCardOrder(accountId, '100.00');
      expect(await app.commands.execute(new MatureProceedsCommand(ledger))).toEqual({ matured: 0 });
      app.advanceSandbox(2 * DAY_MS + 1000);
      expect(await app.commands.execute(new MatureProceedsCommand(ledger))).toEqual({ matured: 1 });
      const state = await app.ledgerState(ledger);
      expect([
        state.pending.toFixed(2),
        state.available.toFixed(2),
        state.maturedProceeds.toFixed(2),
      ]).toEqual(['0.00', '96.80', '96.80']);
      const rows = await app.db.query('SELECT 1 FROM funds_maturing WHERE ledger_stream_id = $1', [ledger]);
      expect(rows.rows).toHaveLength(0);
    });

    it('clears at most `max` payments per command and keeps the next due time for the rest', async () => {
      const { accountId, ledger } = await app.fundedLedger('0.00');
      for (const amount of ['10.00', '11.00', '12.00']) await app.paidCardOrder(accountId, amount);
      app.advanceSandbox(2 * DAY_MS + 1000);
      expect(await app.commands.execute(new MatureProceedsCommand(ledger, 2))).toEqual({ matured: 2 });
      const row = await app.db.query('SELECT 1 FROM funds_maturing WHERE ledger_stream_id = $1', [ledger]);
      expect(row.rows).toHaveLength(1);
      expect(await app.commands.execute(new MatureProceedsCommand(ledger, 2))).toEqual({ matured: 1 });
      expect((await app.ledgerState(ledger)).pendingPayments.size).toBe(0);
    });
  });
});
