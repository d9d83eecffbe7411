import { CommandBus } from '@nestjs/cqrs';
import type { ReceivingDetailsVault } from '@payouts/claims';
import type { EventStore } from '@payouts/event-store';
import { FailPayoutCommand, FlagForReviewCommand, RecordPayoutPaidCommand } from '@payouts/payouts';
import type { PayoutRail } from '../payout-rail.port';
import { loadPayout } from './load-payout';
import type { PayoutJob } from './payout-jobs';

/** A payout under review waits for the operator; the approval wakes it, this is only a safety net. */
const REVIEW_RECHECK_MS = 60_000;

/** Reasons shown to the merchant as safe_reason: short codes, never the recipient's details. */
export const SAFE_REASONS = {
  underReview: 'under_review',
  detailsMissing: 'receiving_details_missing',
  declined: 'declined_by_rail',
} as const;

export type StepOutcome = { done: true } | { done: false; nextInMs: number };

/**
 * Step 2 of the worker (PayoutWorker): a payout whose float is set aside goes through the payout
 * rail under its payout id, and the rail's answer is recorded: paid (receipt, money settled),
 * failed (money returned) or held for review. Decides from the event store and the rail only.
 */
export class PayoutSending {
  constructor(
    private readonly store: EventStore,
    private readonly rail: PayoutRail,
    private readonly vault: ReceivingDetailsVault,
    private readonly commands: CommandBus,
    /** WORKER_POLL_MS: how soon to look again at a transfer the rail has not settled. */
    private readonly pollMs: number,
  ) {}

  /** One look at a payout whose float is set aside: decided from the event store and the rail, never from memory. */
  async advance(job: PayoutJob): Promise<StepOutcome> {
    const { state: payout, events } = await loadPayout(this.store, job.payoutId);
    if (payout.status === 'none') throw new Error('the payout does not exist');
    switch (payout.status) {
      case 'paid':
      case 'cancelled':
      case 'expired':
        return { done: true };
      case 'failed': {
        // A rejected review: make sure the rail never lets the held transfer go.
        const held = await this.rail.get(payout.payoutId);
        if (held?.status === 'held') await this.rail.cancelHold(payout.payoutId);
        return { done: true };
      }
      case 'review_required':
        return { done: false, nextInMs: REVIEW_RECHECK_MS };
      case 'awaiting_choice':
        throw new Error('a payout with float set aside must have been confirmed');
      case 'processing':
        break;
      default: {
        const _never: never = payout;
        throw new Error(`unknown payout status ${JSON.stringify(_never)}`);
      }
    }

    let transfer = await this.rail.get(payout.payoutId);
    if (transfer === null) {
      const details = await this.vault.load(payout.payoutId);
      if (details === null) {
        await this.commands.execute(new FailPayoutCommand(payout.payoutId, SAFE_REASONS.detailsMissing));
        return { done: true };
      }
      transfer = await this.rail.send({
        transferId: payout.payoutId,
        environment: payout.environment,
        amount: payout.amount,
        currency: payout.currency,
        details,
      });
    }
    switch (transfer.status) {
      case 'pending':
        return { done: false, nextInMs: this.pollMs };
      case 'paid':
        if (transfer.receiptReference === null)
          throw new Error('the rail reported a payment without a receipt');
        await this.commands.execute(new RecordPayoutPaidCommand(payout.payoutId, transfer.receiptReference));
        return { done: true };
      case 'failed':
        await this.commands.execute(
          new FailPayoutCommand(payout.payoutId, transfer.failureReason ?? SAFE_REASONS.declined),
        );
        return { done: true };
      case 'held':
        // After the operator approved, the payout is processing again and the rail is told to go on.
        if (events.some((e) => e.type === 'PayoutReviewApproved')) {
          await this.rail.releaseHold(payout.payoutId);
          return { done: false, nextInMs: this.pollMs };
        }
        await this.commands.execute(new FlagForReviewCommand(payout.payoutId, SAFE_REASONS.underReview));
        return { done: false, nextInMs: REVIEW_RECHECK_MS };
      default: {
        const _never: never = transfer.status;
        throw new Error(`unknown rail status ${String(_never)}`);
      }
    }
  }
}
