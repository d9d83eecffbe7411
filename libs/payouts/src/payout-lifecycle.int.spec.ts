import Big from 'big.js';
import { Test } from '@nestjs/testing';
import { CommandBus, CqrsModule, QueryBus } from '@nestjs/cqrs';
import { DomainError, DomainErrorCode, floatStreamId, LedgerLimits, PayoutState } from '@payouts/domain';
import type { Clock } from '@payouts/clock';
import { PostgresEventStore, RecordedEvent } from '@payouts/event-store';
import {
  assertMoneyInvariants,
  TestDatabase,
  TestInfrastructureModule,
  testBackends,
} from '@payouts/testing';
import { countEvents, writtenWith } from '../../event-store/src/testing/stored-events';
import { CancelPayoutCommand } from './cancel-payout/cancel-payout.command';
import { CreatePayoutCommand } from './create-payout/create-payout.command';
import { GetFloatQuery, ReserveFloatCommand, TopUpFloatCommand } from './float/float.commands';
import { CreditFundsCommand, SetLedgerLimitsCommand } from './ledger-admin/ledger-commands';
import {
  ConfirmPayoutCommand,
  ConsumeRedirectHandoffCommand,
  DecideReviewCommand,
  ExpirePayoutCommand,
  FailPayoutCommand,
  FlagForReviewCommand,
  MarkAwaitingFloatCommand,
  RecordPayoutPaidCommand,
} from './payout-lifecycle/payout-lifecycle.commands';
import { PayoutsModule } from './payouts.module';

const LIMITS: LedgerLimits = {
  feePerPayout: '0.50',
  minPayout: '1.00',
  maxPayout: '500.00',
  maxOpenExposure: '100000.00',
  maxPendingPerCustomer: 1000,
};

const DAY_MS = 24 * 3600 * 1000;

/** Time moves only when a test moves it (expiry); the same clock for both environments. */
class SteppingClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

describe.each(testBackends())('payout lifecycle commands on $name', (backend) => {
  let database: TestDatabase;
  let commands: CommandBus;
  let queries: QueryBus;
  let clock: SteppingClock;
  let store: PostgresEventStore;
  let close: () => Promise<void>;
  let counter = 0;

  beforeAll(async () => {
    database = await backend.open();
    store = new PostgresEventStore(database.db);
    clock = new SteppingClock();
    const moduleRef = await Test.createTestingModule({
      imports: [CqrsModule.forRoot(), TestInfrastructureModule.over(database.db, clock), PayoutsModule],
    }).compile();
    await moduleRef.init();
    commands = moduleRef.get(CommandBus);
    queries = moduleRef.get(QueryBus);
    close = () => moduleRef.close();
    // Plenty for every test; the float tests below use production's, which starts empty.
    await commands.execute(new TopUpFloatCommand('sandbox', '100000.00', 'test'));
  });
  afterAll(async () => {
    await close();
    await database.drop();
  });

  async function fundedAccount(funds = '100.00'): Promise<string> {
    counter += 1;
    const accountId = `acct_${backend.name}_${counter}`;
    for (const environment of ['sandbox', 'production'] as const) {
      await commands.execute(new SetLedgerLimitsCommand(accountId, environment, LIMITS));
      await commands.execute(new CreditFundsCommand(accountId, environment, funds, 'initial'));
    }
    return accountId;
  }

  async function linkPayout(
    accountId: string,
    amount = '10.00',
    environment: 'sandbox' | 'production' = 'sandbox',
  ): Promise<string> {
    counter += 1;
    const { payout } = await commands.execute(
      new CreatePayoutCommand({
        accountId,
        environment,
        amount,
        merchantReference: `ref-${counter}`,
        delivery: 'link',
        customerEmail: `r${counter}@example.com`,
      }),
    );
    return payout.payoutId;
  }

  /** A payout the recipient confirmed and whose float is set aside: what the worker sends. */
  async function sendingPayout(accountId: string, amount = '10.00'): Promise<string> {
    const payoutId = await linkPayout(accountId, amount);
    await commands.execute(new ConfirmPayoutCommand(payoutId, 'bank_transfer'));
    await commands.execute(new ReserveFloatCommand(payoutId));
    return payoutId;
  }

  async function eventCount(): Promise<number> {
    return countEvents(store);
  }

  /** The stream's last event. */
  async function lastEventOf(streamId: string): Promise<RecordedEvent> {
    const { events } = await store.readStream(streamId);
    return events[events.length - 1]!;
  }

  async function refusal(run: Promise<unknown>): Promise<{ code: DomainErrorCode; param?: string }> {
    const error = await run.then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    const { code, param } = error as DomainError;
    return param === undefined ? { code } : { code, param };
  }

  /** Refused, and nothing at all was written. */
  async function refusedWithoutWriting(run: () => Promise<unknown>): Promise<DomainErrorCode> {
    const before = await eventCount();
    const { code } = await refusal(run());
    expect(await eventCount()).toBe(before);
    return code;
  }

  const float = (environment: 'sandbox' | 'production' = 'sandbox') =>
    queries.execute(new GetFloatQuery(environment));

  describe('confirm', () => {
    it('moves an awaiting payout to processing with accepted_at and the selected method', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      const confirmed = await commands.execute(new ConfirmPayoutCommand(payoutId, 'wallet'));
      expect(confirmed).toMatchObject({
        status: 'processing',
        selectedMethod: 'wallet',
        statusVersion: 2,
        safeReason: null,
        fundsReleased: false,
      });
      expect(Date.parse((confirmed as { acceptedAt: string }).acceptedAt)).not.toBeNaN();
    });

    it('refuses a second confirmation with invalid_transition and writes nothing', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      await commands.execute(new ConfirmPayoutCommand(payoutId, 'wallet'));
      expect(
        await refusedWithoutWriting(() => commands.execute(new ConfirmPayoutCommand(payoutId, 'debit_card'))),
      ).toBe('invalid_transition');
    });

    it('refuses a method that is not one of the receiving methods with invalid_request', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      await expect(
        refusal(commands.execute(new ConfirmPayoutCommand(payoutId, 'cash' as 'wallet'))),
      ).resolves.toEqual({ code: 'invalid_request', param: 'selected_method' });
    });

    it('refuses a payout that does not exist with payout_not_found', async () => {
      expect(
        await refusedWithoutWriting(() => commands.execute(new ConfirmPayoutCommand('po_missing', 'wallet'))),
      ).toBe('payout_not_found');
    });

    it('refuses a payout past payout_expires_at with invalid_transition', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      clock.advance(8 * DAY_MS);
      expect(
        await refusedWithoutWriting(() => commands.execute(new ConfirmPayoutCommand(payoutId, 'wallet'))),
      ).toBe('invalid_transition');
    });
  });

  describe('redirect handoff', () => {
    async function redirectPayout(accountId: string) {
      counter += 1;
      const { payout } = await commands.execute(
        new CreatePayoutCommand({
          accountId,
          environment: 'sandbox',
          amount: '10.00',
          merchantReference: `redir-${counter}`,
          delivery: 'redirect',
          customerId: `cust-${counter}`,
          returnUrl: 'https://shop.example.com/back',
        }),
      );
      if (payout.delivery !== 'redirect' || payout.currentSession === null) throw new Error('no handoff');
      return { payoutId: payout.payoutId, sessionId: payout.currentSession.sessionId };
    }

    it('consumes the current handoff once; a second use is refused with handoff_invalid', async () => {
      const accountId = await fundedAccount();
      const { payoutId, sessionId } = await redirectPayout(accountId);
      const consumed = await commands.execute(new ConsumeRedirectHandoffCommand(payoutId, sessionId));
      expect(consumed).toMatchObject({
        status: 'awaiting_choice',
        currentSession: { sessionId, consumed: true },
      });
      expect(
        await refusedWithoutWriting(() =>
          commands.execute(new ConsumeRedirectHandoffCommand(payoutId, sessionId)),
        ),
      ).toBe('handoff_invalid');
    });

    it.each([
      ['an unknown payout', 'po_missing', 'ses_x'],
      ['an unknown session', null, 'ses_other'],
    ])('refuses %s with handoff_invalid, revealing nothing', async (_case, payout, sessionId) => {
      const accountId = await fundedAccount();
      const created = await redirectPayout(accountId);
      expect(
        await refusedWithoutWriting(() =>
          commands.execute(new ConsumeRedirectHandoffCommand(payout ?? created.payoutId, sessionId)),
        ),
      ).toBe('handoff_invalid');
    });

    it('refuses a link payout with handoff_invalid', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      expect(
        await refusedWithoutWriting(() =>
          commands.execute(new ConsumeRedirectHandoffCommand(payoutId, 'ses_1')),
        ),
      ).toBe('handoff_invalid');
    });
  });

  describe('the float', () => {
    it('is topped up by the operator and refuses a malformed amount with invalid_amount', async () => {
      const before = await float('production');
      const after = await commands.execute(new TopUpFloatCommand('production', '25.5', 'wire-1'));
      expect(after.floatVersion).toBe(before.floatVersion + 1);
      expect(after.available).toBe(new Big(before.available).plus('25.50').toFixed(2));
      expect(after.toppedUp).toBe(new Big(before.toppedUp).plus('25.50').toFixed(2));
      expect(
        await refusedWithoutWriting(() =>
          commands.execute(new TopUpFloatCommand('production', '1.001', 'x')),
        ),
      ).toBe('invalid_amount');
    });

    it('writes an opening balance only when the float is new', async () => {
      const first = await commands.execute(new TopUpFloatCommand('sandbox', '5.00', 'opening_balance', true));
      const again = await commands.execute(new TopUpFloatCommand('sandbox', '5.00', 'opening_balance', true));
      expect(again.floatVersion).toBe(first.floatVersion);
      expect(again.toppedUp).toBe(first.toppedUp);
    });

    it('sets a confirmed payout’s amount aside, once, and refuses what it cannot cover with float_insufficient', async () => {
      const accountId = await fundedAccount('1000.00');
      const covered = await linkPayout(accountId, '30.00', 'production');
      const uncovered = await linkPayout(accountId, '30.00', 'production');
      await commands.execute(new ConfirmPayoutCommand(covered, 'wallet'));
      await commands.execute(new ConfirmPayoutCommand(uncovered, 'wallet'));
      // Whatever an earlier test left, after this top-up exactly one of the two fits.
      const start = await float('production');
      const topUp = new Big('30.00').minus(start.available);
      if (topUp.gt(0))
        await commands.execute(new TopUpFloatCommand('production', topUp.toFixed(2), 'fit-one'));
      expect((await float('production')).available).toBe('30.00');

      const reserved = await commands.execute(new ReserveFloatCommand(covered));
      expect(reserved).toMatchObject({
        available: '0.00',
        reserved: new Big(start.reserved).plus(30).toFixed(2),
      });
      const again = await commands.execute(new ReserveFloatCommand(covered));
      expect(again.floatVersion).toBe(reserved.floatVersion);
      expect(await refusedWithoutWriting(() => commands.execute(new ReserveFloatCommand(uncovered)))).toBe(
        'float_insufficient',
      );
    });

    it('refuses to set float aside for a payout the recipient has not confirmed', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      expect(await refusedWithoutWriting(() => commands.execute(new ReserveFloatCommand(payoutId)))).toBe(
        'invalid_transition',
      );
      expect(await refusedWithoutWriting(() => commands.execute(new ReserveFloatCommand('po_missing')))).toBe(
        'payout_not_found',
      );
    });

    it('marks a queued payout awaiting_float without a new status_version, and only a processing one', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      expect(
        await refusedWithoutWriting(() => commands.execute(new MarkAwaitingFloatCommand(payoutId))),
      ).toBe('invalid_transition');
      await commands.execute(new ConfirmPayoutCommand(payoutId, 'wallet'));
      const marked = await commands.execute(new MarkAwaitingFloatCommand(payoutId));
      expect(marked).toMatchObject({ status: 'processing', safeReason: 'awaiting_float', statusVersion: 2 });
      const before = await eventCount();
      await commands.execute(new MarkAwaitingFloatCommand(payoutId));
      expect(await eventCount()).toBe(before);
    });
  });

  describe('leaving the float queue', () => {
    /** The events one append wrote with this payout's last event, as `type@stream`. */
    async function lastAppendOf(payoutId: string): Promise<string[]> {
      const appended = await writtenWith(store, await lastEventOf(`payout-${payoutId}`));
      return appended.map((e) => `${e.type}@${e.streamId.split('-')[0]}`);
    }

    async function listed(payoutId: string) {
      const { rows } = await database.db.query<{ safe_reason: string | null; status_version: number }>(
        'SELECT safe_reason, status_version FROM payout_list WHERE payout_id = $1',
        [payoutId],
      );
      return rows[0];
    }

    it('clears awaiting_float in the same append as the float reservation, so the list never shows it stale', async () => {
      const accountId = await fundedAccount('1000.00');
      const payoutId = await linkPayout(accountId, '40.00');
      await commands.execute(new ConfirmPayoutCommand(payoutId, 'wallet'));
      await commands.execute(new MarkAwaitingFloatCommand(payoutId));
      expect(await listed(payoutId)).toEqual({ safe_reason: 'awaiting_float', status_version: 2 });

      await commands.execute(new ReserveFloatCommand(payoutId));
      expect(await lastAppendOf(payoutId)).toEqual(['FloatReserved@float', 'PayoutLeftFloatQueue@payout']);
      expect(await listed(payoutId)).toEqual({ safe_reason: null, status_version: 2 });

      const before = await eventCount();
      await commands.execute(new ReserveFloatCommand(payoutId));
      expect(await eventCount()).toBe(before);
    });

    it('writes no payout event when the float is reserved for a payout that was never queued', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      await commands.execute(new ConfirmPayoutCommand(payoutId, 'wallet'));
      await commands.execute(new ReserveFloatCommand(payoutId));
      expect(await lastAppendOf(payoutId)).toEqual(['PayoutConfirmed@payout']);
      expect(await lastEventOf(floatStreamId('sandbox'))).toMatchObject({
        type: 'FloatReserved',
        data: { payoutId },
      });
      expect(await listed(payoutId)).toEqual({ safe_reason: null, status_version: 2 });
    });
  });

  describe('paid', () => {
    it('records the receipt, settles amount + fee and pays the amount out of the float, in one append', async () => {
      const accountId = await fundedAccount('100.00');
      const payoutId = await sendingPayout(accountId, '20.00');
      const floatBefore = await float();
      const paid = await commands.execute(new RecordPayoutPaidCommand(payoutId, 'rcpt_abc'));
      expect(paid).toMatchObject({ status: 'paid', receiptReference: 'rcpt_abc', statusVersion: 3 });
      expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
        available: '79.50',
        holds: '0.00',
        settled: '20.50',
      });
      const floatAfter = await float();
      expect(floatAfter.floatVersion).toBe(floatBefore.floatVersion + 1);
      expect(floatAfter.paidOut).toBe(new Big(floatBefore.paidOut).plus('20.00').toFixed(2));
      expect(floatAfter.available).toBe(floatBefore.available);
      const payoutPaid = (await store.readStream(`payout-${payoutId}`)).events.find(
        (e) => e.type === 'PayoutPaid',
      );
      const appended = await writtenWith(store, payoutPaid!);
      expect(appended.map((e) => e.type).sort()).toEqual([
        'FloatPaidOut',
        'PayoutFundsSettled',
        'PayoutPaid',
      ]);
      expect(appended.find((e) => e.type === 'FloatPaidOut')?.streamId).toBe(floatStreamId('sandbox'));
    });

    it('changes nothing when the same receipt is recorded again, and refuses another receipt', async () => {
      const accountId = await fundedAccount();
      const payoutId = await sendingPayout(accountId);
      await commands.execute(new RecordPayoutPaidCommand(payoutId, 'rcpt_once'));
      const before = await eventCount();
      await expect(
        commands.execute(new RecordPayoutPaidCommand(payoutId, 'rcpt_once')),
      ).resolves.toMatchObject({
        status: 'paid',
      });
      expect(await eventCount()).toBe(before);
      expect(
        await refusedWithoutWriting(() =>
          commands.execute(new RecordPayoutPaidCommand(payoutId, 'rcpt_other')),
        ),
      ).toBe('invalid_transition');
    });

    it('refuses a receipt that does not begin rcpt_ with invalid_request', async () => {
      const accountId = await fundedAccount();
      const payoutId = await sendingPayout(accountId);
      await expect(
        refusal(commands.execute(new RecordPayoutPaidCommand(payoutId, 'receipt-1'))),
      ).resolves.toEqual({
        code: 'invalid_request',
        param: 'receipt_reference',
      });
    });

    it('refuses to record a payout paid before the recipient confirmed', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      expect(
        await refusedWithoutWriting(() => commands.execute(new RecordPayoutPaidCommand(payoutId, 'rcpt_x'))),
      ).toBe('invalid_transition');
    });
  });

  describe('failed', () => {
    it('returns amount + fee to the balance and the amount to the float; failing again changes nothing', async () => {
      const accountId = await fundedAccount('100.00');
      const payoutId = await sendingPayout(accountId, '20.00');
      const floatBefore = await float();
      const failed = await commands.execute(new FailPayoutCommand(payoutId, 'declined_by_rail'));
      expect(failed).toMatchObject({ status: 'failed', fundsReleased: true, safeReason: 'declined_by_rail' });
      expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
        available: '100.00',
        holds: '0.00',
        settled: '0.00',
      });
      const floatAfter = await float();
      expect(floatAfter.reserved).toBe(new Big(floatBefore.reserved).minus('20.00').toFixed(2));
      expect(floatAfter.available).toBe(new Big(floatBefore.available).plus('20.00').toFixed(2));
      const before = await eventCount();
      await commands.execute(new FailPayoutCommand(payoutId, 'declined_by_rail'));
      expect(await eventCount()).toBe(before);
      expect(
        await refusedWithoutWriting(() =>
          commands.execute(new RecordPayoutPaidCommand(payoutId, 'rcpt_late')),
        ),
      ).toBe('invalid_transition');
    });

    it('refuses a failure without a reason with invalid_request', async () => {
      const accountId = await fundedAccount();
      const payoutId = await sendingPayout(accountId);
      await expect(refusal(commands.execute(new FailPayoutCommand(payoutId, '')))).resolves.toEqual({
        code: 'invalid_request',
        param: 'reason',
      });
    });

    it('lets exactly one of a concurrent payment and failure win, and the money follows the winner', async () => {
      const accountId = await fundedAccount('100.00');
      const payoutId = await sendingPayout(accountId, '10.00');
      const results = await Promise.allSettled([
        commands.execute(new RecordPayoutPaidCommand(payoutId, 'rcpt_race')),
        commands.execute(new FailPayoutCommand(payoutId, 'declined_by_rail')),
      ]);
      const won = results.filter((r): r is PromiseFulfilledResult<PayoutState> => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect([won.length, lost.length]).toEqual([1, 1]);
      expect(lost[0]!.reason).toMatchObject({ code: 'invalid_transition' });
      const balance = await assertMoneyInvariants(database.db, accountId, 'sandbox');
      if (won[0]!.value.status === 'paid')
        expect(balance).toMatchObject({ settled: '10.50', available: '89.50' });
      else expect(balance).toMatchObject({ settled: '0.00', available: '100.00' });
    });
  });

  describe('review', () => {
    async function underReview(accountId: string): Promise<string> {
      const payoutId = await sendingPayout(accountId, '10.00');
      const flagged = await commands.execute(new FlagForReviewCommand(payoutId, 'under_review'));
      expect(flagged).toMatchObject({
        status: 'review_required',
        safeReason: 'under_review',
        statusVersion: 3,
      });
      return payoutId;
    }

    it('an approval puts the payout back to processing with its money still reserved', async () => {
      const accountId = await fundedAccount('100.00');
      const payoutId = await underReview(accountId);
      const approved = await commands.execute(new DecideReviewCommand(payoutId, 'approve'));
      expect(approved).toMatchObject({ status: 'processing', statusVersion: 4, fundsReleased: false });
      expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
        holds: '10.50',
      });
    });

    it('a rejection fails the payout and returns amount + fee to the balance and the amount to the float', async () => {
      const accountId = await fundedAccount('100.00');
      const payoutId = await underReview(accountId);
      const reserved = (await float()).reserved;
      const rejected = await commands.execute(new DecideReviewCommand(payoutId, 'reject'));
      expect(rejected).toMatchObject({
        status: 'failed',
        safeReason: 'review_rejected',
        fundsReleased: true,
      });
      expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
        available: '100.00',
        holds: '0.00',
      });
      expect((await float()).reserved).toBe(new Big(reserved).minus('10.00').toFixed(2));
    });

    it('refuses a decision on a payout that is not under review with invalid_transition', async () => {
      const accountId = await fundedAccount();
      const payoutId = await sendingPayout(accountId);
      for (const decision of ['approve', 'reject'] as const) {
        expect(
          await refusedWithoutWriting(() => commands.execute(new DecideReviewCommand(payoutId, decision))),
        ).toBe('invalid_transition');
      }
      expect(
        await refusedWithoutWriting(() => commands.execute(new DecideReviewCommand('po_missing', 'approve'))),
      ).toBe('payout_not_found');
    });

    it('refuses to flag a payout that is not processing, or without a reason', async () => {
      const accountId = await fundedAccount();
      const awaiting = await linkPayout(accountId);
      expect(
        await refusedWithoutWriting(() =>
          commands.execute(new FlagForReviewCommand(awaiting, 'under_review')),
        ),
      ).toBe('invalid_transition');
      const processing = await sendingPayout(accountId);
      await expect(refusal(commands.execute(new FlagForReviewCommand(processing, '')))).resolves.toEqual({
        code: 'invalid_request',
        param: 'reason',
      });
    });
  });

  describe('expiry', () => {
    it('refuses before payout_expires_at with not_yet_expired, then expires and returns the money', async () => {
      const accountId = await fundedAccount('100.00');
      const payoutId = await linkPayout(accountId, '10.00');
      expect(await refusedWithoutWriting(() => commands.execute(new ExpirePayoutCommand(payoutId)))).toBe(
        'not_yet_expired',
      );
      clock.advance(7 * DAY_MS);
      const expired = await commands.execute(new ExpirePayoutCommand(payoutId));
      expect(expired).toMatchObject({ status: 'expired', fundsReleased: true, statusVersion: 2 });
      expect(await assertMoneyInvariants(database.db, accountId, 'sandbox')).toMatchObject({
        available: '100.00',
        holds: '0.00',
      });
      const before = await eventCount();
      await commands.execute(new ExpirePayoutCommand(payoutId));
      expect(await eventCount()).toBe(before);
    });

    it('refuses to expire a payout the recipient confirmed with invalid_transition', async () => {
      const accountId = await fundedAccount();
      const payoutId = await linkPayout(accountId);
      await commands.execute(new ConfirmPayoutCommand(payoutId, 'wallet'));
      clock.advance(8 * DAY_MS);
      expect(await refusedWithoutWriting(() => commands.execute(new ExpirePayoutCommand(payoutId)))).toBe(
        'invalid_transition',
      );
    });
  });

  /** The worker's work list (payout_jobs), written by each command's plan with the payout's events. */
  describe('the payout job rows', () => {
    interface JobRow {
      expires_at: string | null;
      accepted_at: string | null;
      confirmed_seq: string | null;
      next_attempt_at: string | null;
      wake_count: string;
      finished_at: string | null;
    }

    async function job(payoutId: string): Promise<JobRow | undefined> {
      const { rows } = await database.db.query<JobRow>(
        `SELECT to_json(expires_at)#>>'{}' AS expires_at, to_json(accepted_at)#>>'{}' AS accepted_at,
                confirmed_seq::text, to_json(next_attempt_at)#>>'{}' AS next_attempt_at,
                wake_count::text, to_json(finished_at)#>>'{}' AS finished_at
           FROM payout_jobs WHERE payout_id = $1`,
        [payoutId],
      );
      return rows[0];
    }

    const at = (iso: string | null | undefined) => (iso ? new Date(iso).toISOString() : iso);

    /** A look the worker put off, so that a wake-up shows. */
    const putOff = (payoutId: string) =>
      database.db.query(
        `UPDATE payout_jobs SET next_attempt_at = now() + interval '1 hour' WHERE payout_id = $1`,
        [payoutId],
      );

    it('arms the expiry timer with the create, and confirming disarms it and joins the float queue', async () => {
      const accountId = await fundedAccount();
      const first = await linkPayout(accountId);
      const created = await job(first);
      const confirmed = (await commands.execute(new ConfirmPayoutCommand(first, 'wallet'))) as {
        payoutExpiresAt: string;
        acceptedAt: string;
      };
      expect(created).toMatchObject({
        accepted_at: null,
        confirmed_seq: null,
        wake_count: '0',
        finished_at: null,
      });
      expect(at(created?.expires_at)).toBe(confirmed.payoutExpiresAt);
      expect(await job(first)).toMatchObject({ expires_at: null, next_attempt_at: null, wake_count: '1' });
      expect(at((await job(first))?.accepted_at)).toBe(confirmed.acceptedAt);
      const second = await linkPayout(accountId);
      await commands.execute(new ConfirmPayoutCommand(second, 'wallet'));
      expect(BigInt((await job(second))!.confirmed_seq!)).toBeGreaterThan(
        BigInt((await job(first))!.confirmed_seq!),
      );
    });

    it('finishes the job when the payout is cancelled, expires or is paid, at the event’s time', async () => {
      const accountId = await fundedAccount('100.00');
      const cancelled = await linkPayout(accountId);
      const expiring = await linkPayout(accountId);
      const paid = await sendingPayout(accountId);
      const ended = [
        await commands.execute(new CancelPayoutCommand(accountId, 'sandbox', cancelled)),
        await commands.execute(new RecordPayoutPaidCommand(paid, 'rcpt_job_rows')),
      ];
      clock.advance(8 * DAY_MS);
      ended.push(await commands.execute(new ExpirePayoutCommand(expiring)));
      for (const payout of ended) {
        const row = await job((payout as { payoutId: string }).payoutId);
        expect(row).toMatchObject({ expires_at: null });
        expect(at(row?.finished_at)).toBe((payout as { updatedAt: string }).updatedAt);
      }
    });

    it('wakes the job when a review is approved and when a confirmed payout fails, which stays for the worker to tidy up', async () => {
      const accountId = await fundedAccount('100.00');
      const payoutId = await sendingPayout(accountId);
      await commands.execute(new FlagForReviewCommand(payoutId, 'under_review'));
      await putOff(payoutId);
      await commands.execute(new DecideReviewCommand(payoutId, 'approve'));
      expect(await job(payoutId)).toMatchObject({
        next_attempt_at: null,
        wake_count: '2',
        finished_at: null,
      });
      await putOff(payoutId);
      await commands.execute(new FailPayoutCommand(payoutId, 'declined_by_rail'));
      expect(await job(payoutId)).toMatchObject({
        next_attempt_at: null,
        wake_count: '3',
        finished_at: null,
      });
    });

    it('writes nothing to the job when the command plans nothing', async () => {
      const accountId = await fundedAccount();
      const payoutId = await sendingPayout(accountId);
      await commands.execute(new FailPayoutCommand(payoutId, 'declined_by_rail'));
      const failed = await job(payoutId);
      await commands.execute(new FailPayoutCommand(payoutId, 'declined_by_rail'));
      expect(await job(payoutId)).toEqual(failed);
    });
  });
});
