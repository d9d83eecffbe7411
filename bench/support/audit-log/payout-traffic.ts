import { randomBytes } from 'node:crypto';
import { DomainError, Environment, HOUR_MS, MINUTE_MS, RECEIVING_METHODS } from '@payouts/domain';
import { newPayoutId } from '@payouts/payouts';
import { FundsCommands } from './funds-commands';
import { PayoutCommands } from './payout-commands';
import { Random, randomCents } from './random-values';
import { Schedule } from './schedule';

/** Runs one command as the API or the worker would, counting a refusal (nothing written) by its code. */
export type Attempt = (run: () => void) => void;

/** A float top-up the operator makes when payouts queue for it, and its size. */
const FLOAT_TOP_UP = '100000.00';

/**
 * A payout's life the way recipients, the worker, the rail and the operator move it: created,
 * then cancelled, left to expire, or claimed (a rotated link, a redirect handoff) and confirmed;
 * the float set aside (or the payout queued for it until the operator tops up), then paid,
 * failed by the rail, or held for review and approved or rejected. Each step is a command at its
 * own simulated time, so accounts interleave as real traffic does.
 */
export class PayoutTraffic {
  private readonly topUpDue = new Set<Environment>();
  private seq = 0;

  constructor(
    private readonly payouts: PayoutCommands,
    private readonly funds: FundsCommands,
    private readonly schedule: Schedule,
    private readonly random: Random,
    private readonly attempt: Attempt,
  ) {}

  create(accountId: string, environment: Environment): void {
    const payoutId = newPayoutId();
    const seq = (this.seq += 1);
    const link = this.random.chance(0.8);
    this.attempt(() => {
      const payout = this.payouts.create(
        {
          payoutId,
          accountId,
          environment,
          amount: randomCents(this.random, 1, 250),
          merchantReference: `ref-${seq}`,
          delivery: link ? 'link' : 'redirect',
          customerEmail: link ? `recipient-${this.random.int(1, 400)}@example.com` : null,
          customerId: link ? null : `cust_${this.random.int(1, 400)}`,
          returnUrl: link ? null : 'https://merchant.example.com/payouts/return',
          description: this.random.chance(0.5) ? 'Refund' : null,
          caseReference: this.random.chance(0.2) ? `case-${seq}` : null,
          originalPaymentId: null,
        },
        this.schedule.now,
      );
      this.afterCreate(payoutId, link, Date.parse(payout.payoutExpiresAt));
    });
  }

  private afterCreate(payoutId: string, link: boolean, expiresAtMs: number): void {
    const roll = this.random.next();
    if (roll < 0.08) {
      this.schedule.after(this.random.int(10 * MINUTE_MS, 20 * HOUR_MS), () =>
        this.endUnclaimed(payoutId, 'cancelled'),
      );
    } else if (roll < 0.15) {
      // Never claimed: the worker expires it once payout_expires_at has passed.
      this.schedule.at(expiresAtMs + this.random.int(MINUTE_MS, 10 * MINUTE_MS), () =>
        this.endUnclaimed(payoutId, 'expired'),
      );
    } else {
      const claimAt = this.schedule.nowMs + this.random.int(5 * MINUTE_MS, 20 * HOUR_MS);
      if (link && this.random.chance(0.05))
        this.schedule.at(claimAt - 2 * MINUTE_MS, () => this.rotate(payoutId));
      this.schedule.at(claimAt, () => this.confirm(payoutId, link));
    }
  }

  /** The merchant's cancel or the worker's expiry of an unclaimed payout: its money goes back. */
  private endUnclaimed(payoutId: string, how: 'cancelled' | 'expired'): void {
    this.attempt(() =>
      this.payouts.transition(
        payoutId,
        () => ({
          payout: { type: how === 'cancelled' ? 'CancelPayout' : 'ExpirePayout', data: {} },
          ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: how } },
        }),
        this.schedule.now,
      ),
    );
  }

  private rotate(payoutId: string): void {
    this.attempt(() => this.payouts.rotateLink(payoutId, this.schedule.now));
  }

  private confirm(payoutId: string, link: boolean): void {
    this.attempt(() => {
      if (!link) this.payouts.handOff(payoutId, this.schedule.now);
      const selectedMethod = this.random.pick(RECEIVING_METHODS);
      this.payouts.transition(
        payoutId,
        () => ({ payout: { type: 'ConfirmPayout', data: { selectedMethod } } }),
        this.schedule.now,
      );
      this.schedule.after(this.random.int(MINUTE_MS, 3 * MINUTE_MS), () => this.reserveFloat(payoutId));
    });
  }

  /** The worker's float queue: set aside, or queued (awaiting_float) until the operator tops up. */
  private reserveFloat(payoutId: string): void {
    this.attempt(() => {
      try {
        this.payouts.reserveFloat(payoutId, this.schedule.now);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'float_insufficient') throw error;
        const payout = this.payouts.transition(
          payoutId,
          () => ({ payout: { type: 'MarkAwaitingFloat', data: {} } }),
          this.schedule.now,
        );
        if (payout.status !== 'none') this.topUpSoon(payout.environment);
        this.schedule.after(3 * HOUR_MS, () => this.reserveFloat(payoutId));
        return;
      }
      this.schedule.after(this.random.int(2 * MINUTE_MS, HOUR_MS), () => this.railAnswers(payoutId));
    });
  }

  private topUpSoon(environment: Environment): void {
    if (this.topUpDue.has(environment)) return;
    this.topUpDue.add(environment);
    this.schedule.after(this.random.int(HOUR_MS, 2 * HOUR_MS), () => {
      this.topUpDue.delete(environment);
      this.funds.onFloat(
        environment,
        {
          type: 'TopUpFloat',
          data: { environment, amount: FLOAT_TOP_UP, reference: `top-up-${this.schedule.nowMs}` },
        },
        this.schedule.now,
      );
    });
  }

  private railAnswers(payoutId: string): void {
    const roll = this.random.next();
    if (roll < 0.88) this.paid(payoutId);
    else if (roll < 0.93) this.failed(payoutId, 'declined_by_rail');
    else {
      this.attempt(() =>
        this.payouts.transition(
          payoutId,
          () => ({ payout: { type: 'FlagForReview', data: { reason: 'under_review' } } }),
          this.schedule.now,
        ),
      );
      this.schedule.after(this.random.int(HOUR_MS, 12 * HOUR_MS), () => this.review(payoutId));
    }
  }

  private paid(payoutId: string): void {
    const receiptReference = `rcpt_${randomBytes(12).toString('hex')}`;
    this.attempt(() =>
      this.payouts.transition(
        payoutId,
        ({ environment }) => ({
          payout: { type: 'RecordPayoutPaid', data: { receiptReference } },
          ledger: { type: 'SettlePayoutFunds', data: { payoutId } },
          float: { type: 'SettleFloat', data: { environment, payoutId } },
        }),
        this.schedule.now,
      ),
    );
  }

  private failed(payoutId: string, reason: string): void {
    this.attempt(() =>
      this.payouts.transition(
        payoutId,
        ({ environment }) => ({
          payout: { type: 'FailPayout', data: { reason } },
          ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'failed' } },
          float: { type: 'ReleaseFloat', data: { environment, payoutId } },
        }),
        this.schedule.now,
      ),
    );
  }

  /** The operator's decision; an approved payout goes back to the rail, which then pays it. */
  private review(payoutId: string): void {
    const approve = this.random.chance(0.7);
    this.attempt(() =>
      this.payouts.transition(
        payoutId,
        ({ environment }) =>
          approve
            ? { payout: { type: 'DecideReview', data: { decision: 'approve' } } }
            : {
                payout: { type: 'DecideReview', data: { decision: 'reject' } },
                ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'failed' } },
                float: { type: 'ReleaseFloat', data: { environment, payoutId } },
              },
        this.schedule.now,
      ),
    );
    if (approve)
      this.schedule.after(this.random.int(5 * MINUTE_MS, 30 * MINUTE_MS), () => this.paid(payoutId));
  }
}
