import { CommandHandler } from '@nestjs/cqrs';
import { ledgerStreamId, PayoutState } from '@payouts/domain';
import { answerRow } from '@payouts/idempotency';
import { Decision, withRows } from '@payouts/write-side';
import { PayoutTransitionHandler } from '../shared/payout-transition.handler';
import type { TransitionOptions, TransitionPlan } from '../shared/payout-transitions';
import { payoutMerchantView } from '../shared/payout-responses';
import { CancelPayoutCommand } from './cancel-payout.command';

/**
 * Cancels an unclaimed payout and returns amount + fee to the balance in one atomic append
 * (payout and ledger, both with expected versions). Already cancelled, expired or failed payouts
 * come back unchanged. Another account's (or environment's) payout does not exist for the caller.
 */
@CommandHandler(CancelPayoutCommand)
export class CancelPayoutHandler extends PayoutTransitionHandler<CancelPayoutCommand> {
  locksFor({ accountId, environment }: CancelPayoutCommand): readonly string[] {
    return [ledgerStreamId(accountId, environment)];
  }

  override async decide(command: CancelPayoutCommand): Promise<Decision<PayoutState>> {
    const decision = await super.decide(command);
    const payout = decision.result;
    if (!command.hold || payout.status === 'none') return decision;
    return {
      ...decision,
      plan: withRows(decision.plan, [answerRow(command.hold, 200, payoutMerchantView(payout))]),
    };
  }

  protected transition({ payoutId }: CancelPayoutCommand): TransitionPlan {
    return {
      payout: { type: 'CancelPayout', data: {} },
      ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'cancelled' } },
    };
  }

  protected override options({ accountId, environment }: CancelPayoutCommand): TransitionOptions {
    return { owner: { accountId, environment } };
  }
}
