import { CreatePayoutCommand, CreditFundsCommand } from '@payouts/payouts';
import { testBackends } from '@payouts/testing';
import { FundsTestApp, openFundsTestApp } from './testing/funds-test-app';
import { SetRetainedTargetCommand } from './retained-target/set-retained-target';
import { CompleteSettlementCommand, StartSettlementCommand } from './settlement-run/settlement-commands';
import { dailySettlementId, manualSettlementId } from './settlement-run/settlement-ids';

describe.each(testBackends())('settlement commands and runs on $name', (backend) => {
  let app: FundsTestApp;

  beforeAll(async () => {
    app = await openFundsTestApp(backend);
  });
  afterAll(() => app.close());

  describe('settlements', () => {
    it('starts a settlement of available − retained target, never touching money held for payouts', async () => {
      const { accountId, ledger } = await app.fundedLedger('100.00');
      await app.commands.execute(new SetRetainedTargetCommand(ledger, '30.00'));
      await app.commands.execute(
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
      const { started } = await app.commands.execute(new StartSettlementCommand(ledger, id, 'manual'));
      expect(started).toMatchObject({
        settlementId: id,
        amount: '59.50',
        retainedTarget: '30.00',
        currency: 'USD',
      });
      const state = await app.ledgerState(ledger);
      expect([state.available.toFixed(2), state.merchantSettlementHolds.toFixed(2)]).toEqual([
        '30.00',
        '59.50',
      ]);
      const job = await app.db.query<{ amount: string }>(
        'SELECT amount::text AS amount FROM settlement_jobs WHERE settlement_id = $1 AND completed_at IS NULL',
        [id],
      );
      expect(job.rows).toEqual([{ amount: '59.50' }]);
    });

    it('starts nothing when less than 1.00 would be settled, or for an id already used', async () => {
      const { ledger } = await app.fundedLedger('0.99');
      expect(
        await app.commands.execute(new StartSettlementCommand(ledger, manualSettlementId(), 'manual')),
      ).toEqual({
        started: null,
      });
      const funded = await app.fundedLedger('5.00');
      // A day's id, run by the operator (the nightly run leaves a ledger of credits alone).
      const id = dailySettlementId(funded.ledger, '2026-01-01');
      expect(
        (await app.commands.execute(new StartSettlementCommand(funded.ledger, id, 'manual'))).started,
      ).not.toBeNull();
      await app.commands.execute(new CreditFundsCommand(funded.accountId, 'sandbox', '5.00', 'more'));
      expect(await app.commands.execute(new StartSettlementCommand(funded.ledger, id, 'manual'))).toEqual({
        started: null,
      });
    });

    it('completes a paid settlement once; the same answer again changes nothing; another answer is refused', async () => {
      const { ledger } = await app.fundedLedger('20.00');
      const id = manualSettlementId();
      await app.commands.execute(new StartSettlementCommand(ledger, id, 'manual'));
      expect(
        await app.commands.execute(new CompleteSettlementCommand(ledger, id, { outcome: 'paid' })),
      ).toEqual({
        completed: true,
      });
      expect(
        await app.commands.execute(new CompleteSettlementCommand(ledger, id, { outcome: 'paid' })),
      ).toEqual({
        completed: false,
      });
      await expect(
        app.commands.execute(new CompleteSettlementCommand(ledger, id, { outcome: 'failed', reason: 'x' })),
      ).rejects.toMatchObject({ code: 'invalid_transition' });
      const state = await app.ledgerState(ledger);
      expect([state.available.toFixed(2), state.settlementsPaid.toFixed(2)]).toEqual(['0.00', '20.00']);
      const job = await app.db.query(
        'SELECT 1 FROM settlement_jobs WHERE settlement_id = $1 AND completed_at IS NOT NULL',
        [id],
      );
      expect(job.rows).toHaveLength(1);
    });

    it('returns a failed settlement to available, and refuses to complete an unknown settlement', async () => {
      const { ledger } = await app.fundedLedger('20.00');
      const id = manualSettlementId();
      await app.commands.execute(new StartSettlementCommand(ledger, id, 'manual'));
      await app.commands.execute(
        new CompleteSettlementCommand(ledger, id, { outcome: 'failed', reason: 'closed' }),
      );
      expect((await app.ledgerState(ledger)).available.toFixed(2)).toBe('20.00');
      await expect(
        app.commands.execute(
          new CompleteSettlementCommand(ledger, manualSettlementId(), { outcome: 'paid' }),
        ),
      ).rejects.toMatchObject({ code: 'not_found' });
    });

    it('runs now on every ledger of the environment and pays through the rail, or returns the money on failure', async () => {
      const paid = await app.fundedLedger('40.00');
      const small = await app.fundedLedger('0.50');
      const settled = await app.runs.runNow('sandbox');
      const mine = settled.filter((s) => [paid.accountId, small.accountId].includes(s.accountId));
      expect(mine).toEqual([
        expect.objectContaining({
          accountId: paid.accountId,
          amount: '40.00',
          status: 'paid',
          trigger: 'manual',
        }),
      ]);
      expect((await app.ledgerState(paid.ledger)).settlementsPaid.toFixed(2)).toBe('40.00');

      await app.railSettings.setSandboxOutcome('failed');
      try {
        await app.commands.execute(new CreditFundsCommand(paid.accountId, 'sandbox', '12.00', 'again'));
        const failed = (await app.runs.runNow('sandbox')).find((s) => s.accountId === paid.accountId);
        expect(failed).toMatchObject({
          amount: '12.00',
          status: 'failed',
          failureReason: 'bank_account_closed',
        });
        const state = await app.ledgerState(paid.ledger);
        expect([state.available.toFixed(2), state.merchantSettlementHolds.toFixed(2)]).toEqual([
          '12.00',
          '0.00',
        ]);
      } finally {
        await app.railSettings.setSandboxOutcome('paid');
      }
    });

    it('takes into a run the proceeds that cleared before it, even where no maturing pass has been yet', async () => {
      const { accountId, ledger } = await app.fundedLedger('0.00');
      await app.paidCardOrder(accountId, '100.00');
      // Cleared (card: two days), never matured by a worker pass: the run matures it first.
      app.advanceSandbox(2 * 24 * 3600 * 1000 + 60_000);
      const settled = (await app.runs.runNow('sandbox')).filter((s) => s.accountId === accountId);
      expect(settled).toEqual([expect.objectContaining({ amount: '96.80', status: 'paid' })]);
      const state = await app.ledgerState(ledger);
      expect([state.pending.toFixed(2), state.settlementsPaid.toFixed(2)]).toEqual(['0.00', '96.80']);
    });

    it('completes a settlement a crash left started, asking the rail again under the same id', async () => {
      const { accountId, ledger } = await app.fundedLedger('15.00');
      const id = manualSettlementId();
      await app.commands.execute(new StartSettlementCommand(ledger, id, 'manual'));
      // The crash happened after the rail answered: its first answer stands.
      await app.rail.pay({
        settlementId: id,
        accountId,
        environment: 'sandbox',
        currency: 'USD',
        amount: '15.00',
      });
      await app.railSettings.setSandboxOutcome('failed');
      try {
        expect(await app.runs.completeOpen('sandbox')).toBeGreaterThanOrEqual(1);
      } finally {
        await app.railSettings.setSandboxOutcome('paid');
      }
      expect((await app.ledgerState(ledger)).closedSettlements.get(id)).toBe('paid');
    });

    it('refuses to pay one settlement id twice with other terms', async () => {
      const payment = {
        settlementId: manualSettlementId(),
        accountId: 'acct_rail',
        environment: 'production' as const,
        currency: 'USD',
        amount: '3.00',
      };
      expect(await app.rail.pay(payment)).toEqual({ status: 'paid' });
      expect(await app.rail.pay(payment)).toEqual({ status: 'paid' });
      await expect(app.rail.pay({ ...payment, amount: '4.00' })).rejects.toThrow(/other terms/);
    });
  });
});
