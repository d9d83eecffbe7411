import { CommandHandler } from '@nestjs/cqrs';
import { DomainError, Payout, RECEIVING_METHODS, ReceivingMethod } from '@payouts/domain';
import { PayoutTransitionHandler } from '../shared/payout-transition.handler';
import type { TransitionOptions, TransitionPlan } from '../shared/payout-transitions';
import {
  ConfirmPayoutCommand,
  ConsumeRedirectHandoffCommand,
  DecideReviewCommand,
  ExpirePayoutCommand,
  FailPayoutCommand,
  FlagForReviewCommand,
  MarkAwaitingFloatCommand,
  RecordPayoutPaidCommand,
} from './payout-lifecycle.commands';

@CommandHandler(ConfirmPayoutCommand)
export class ConfirmPayoutHandler extends PayoutTransitionHandler<ConfirmPayoutCommand> {
  protected transition({ selectedMethod, sealDetails }: ConfirmPayoutCommand): TransitionPlan {
    // The type says so, but the value comes from a browser: the domain only asks for some text.
    if (!(RECEIVING_METHODS as readonly string[]).includes(selectedMethod)) {
      throw new DomainError(
        'invalid_request',
        `selected_method must be one of ${RECEIVING_METHODS.join(', ')}`,
        'selected_method',
      );
    }
    return {
      payout: { type: 'ConfirmPayout', data: { selectedMethod: selectedMethod as ReceivingMethod } },
      rows: sealDetails ? [sealDetails] : [],
    };
  }
}

@CommandHandler(ConsumeRedirectHandoffCommand)
export class ConsumeRedirectHandoffHandler extends PayoutTransitionHandler<ConsumeRedirectHandoffCommand> {
  protected transition({ sessionId }: ConsumeRedirectHandoffCommand): TransitionPlan {
    return { payout: { type: 'ConsumeRedirectHandoff', data: { sessionId } } };
  }

  protected override options({ sessionId }: ConsumeRedirectHandoffCommand): TransitionOptions {
    return { missing: { type: 'ConsumeRedirectHandoff', data: { sessionId } } };
  }
}

@CommandHandler(MarkAwaitingFloatCommand)
export class MarkAwaitingFloatHandler extends PayoutTransitionHandler<MarkAwaitingFloatCommand> {
  protected transition(): TransitionPlan {
    return { payout: { type: 'MarkAwaitingFloat', data: {} } };
  }
}

@CommandHandler(FlagForReviewCommand)
export class FlagForReviewHandler extends PayoutTransitionHandler<FlagForReviewCommand> {
  protected transition({ reason }: FlagForReviewCommand): TransitionPlan {
    return { payout: { type: 'FlagForReview', data: { reason } } };
  }
}

/** A rejection fails the payout: amount + fee back to the merchant, the amount back to the float. */
@CommandHandler(DecideReviewCommand)
export class DecideReviewHandler extends PayoutTransitionHandler<DecideReviewCommand> {
  protected transition({ payoutId, decision }: DecideReviewCommand, { environment }: Payout): TransitionPlan {
    if (decision !== 'reject') return { payout: { type: 'DecideReview', data: { decision } } };
    return {
      payout: { type: 'DecideReview', data: { decision } },
      ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'failed' } },
      float: { type: 'ReleaseFloat', data: { environment, payoutId } },
    };
  }
}

@CommandHandler(RecordPayoutPaidCommand)
export class RecordPayoutPaidHandler extends PayoutTransitionHandler<RecordPayoutPaidCommand> {
  protected transition(
    { payoutId, receiptReference }: RecordPayoutPaidCommand,
    { environment }: Payout,
  ): TransitionPlan {
    return {
      payout: { type: 'RecordPayoutPaid', data: { receiptReference } },
      ledger: { type: 'SettlePayoutFunds', data: { payoutId } },
      float: { type: 'SettleFloat', data: { environment, payoutId } },
    };
  }
}

@CommandHandler(FailPayoutCommand)
export class FailPayoutHandler extends PayoutTransitionHandler<FailPayoutCommand> {
  protected transition({ payoutId, reason }: FailPayoutCommand, { environment }: Payout): TransitionPlan {
    return {
      payout: { type: 'FailPayout', data: { reason } },
      ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'failed' } },
      // Nothing was set aside when the payout fails before the float covered it: then this writes nothing.
      float: { type: 'ReleaseFloat', data: { environment, payoutId } },
    };
  }
}

/** Unclaimed payouts never touched the float (it is reserved only after the recipient confirms). */
@CommandHandler(ExpirePayoutCommand)
export class ExpirePayoutHandler extends PayoutTransitionHandler<ExpirePayoutCommand> {
  protected transition({ payoutId }: ExpirePayoutCommand): TransitionPlan {
    return {
      payout: { type: 'ExpirePayout', data: {} },
      ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'expired' } },
    };
  }
}
