import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, PayoutState, RECEIVING_METHODS, ReceivingMethod } from '@payouts/domain';
import { PayoutTransitions } from '../support/payout-transitions';
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
export class ConfirmPayoutHandler implements ICommandHandler<ConfirmPayoutCommand, PayoutState> {
  constructor(private readonly transitions: PayoutTransitions) {}

  async execute({ payoutId, selectedMethod, alsoInTransaction }: ConfirmPayoutCommand): Promise<PayoutState> {
    // The type says so, but the value comes from a browser: the domain only asks for some text.
    if (!(RECEIVING_METHODS as readonly string[]).includes(selectedMethod)) {
      throw new DomainError(
        'invalid_request',
        `selected_method must be one of ${RECEIVING_METHODS.join(', ')}`,
        'selected_method',
      );
    }
    return this.transitions.run(
      payoutId,
      () => ({
        payout: { type: 'ConfirmPayout', data: { selectedMethod: selectedMethod as ReceivingMethod } },
        ...(alsoInTransaction ? { alsoInTransaction } : {}),
      }),
      { movesMoney: false },
    );
  }
}

@CommandHandler(ConsumeRedirectHandoffCommand)
export class ConsumeRedirectHandoffHandler implements ICommandHandler<
  ConsumeRedirectHandoffCommand,
  PayoutState
> {
  constructor(private readonly transitions: PayoutTransitions) {}

  execute({ payoutId, sessionId }: ConsumeRedirectHandoffCommand): Promise<PayoutState> {
    const consume = { type: 'ConsumeRedirectHandoff' as const, data: { sessionId } };
    return this.transitions.run(payoutId, () => ({ payout: consume }), {
      movesMoney: false,
      missing: consume,
    });
  }
}

@CommandHandler(MarkAwaitingFloatCommand)
export class MarkAwaitingFloatHandler implements ICommandHandler<MarkAwaitingFloatCommand, PayoutState> {
  constructor(private readonly transitions: PayoutTransitions) {}

  execute({ payoutId }: MarkAwaitingFloatCommand): Promise<PayoutState> {
    return this.transitions.run(payoutId, () => ({ payout: { type: 'MarkAwaitingFloat', data: {} } }), {
      movesMoney: false,
    });
  }
}

@CommandHandler(FlagForReviewCommand)
export class FlagForReviewHandler implements ICommandHandler<FlagForReviewCommand, PayoutState> {
  constructor(private readonly transitions: PayoutTransitions) {}

  execute({ payoutId, reason }: FlagForReviewCommand): Promise<PayoutState> {
    return this.transitions.run(payoutId, () => ({ payout: { type: 'FlagForReview', data: { reason } } }), {
      movesMoney: false,
    });
  }
}

/** A rejection fails the payout: amount + fee back to the merchant, the amount back to the float. */
@CommandHandler(DecideReviewCommand)
export class DecideReviewHandler implements ICommandHandler<DecideReviewCommand, PayoutState> {
  constructor(private readonly transitions: PayoutTransitions) {}

  execute({ payoutId, decision }: DecideReviewCommand): Promise<PayoutState> {
    return this.transitions.run(
      payoutId,
      ({ environment }) =>
        decision === 'reject'
          ? {
              payout: { type: 'DecideReview', data: { decision } },
              ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'failed' } },
              float: { type: 'ReleaseFloat', data: { environment, payoutId } },
            }
          : { payout: { type: 'DecideReview', data: { decision } } },
      { movesMoney: true },
    );
  }
}

@CommandHandler(RecordPayoutPaidCommand)
export class RecordPayoutPaidHandler implements ICommandHandler<RecordPayoutPaidCommand, PayoutState> {
  constructor(private readonly transitions: PayoutTransitions) {}

  execute({ payoutId, receiptReference }: RecordPayoutPaidCommand): Promise<PayoutState> {
    return this.transitions.run(
      payoutId,
      ({ environment }) => ({
        payout: { type: 'RecordPayoutPaid', data: { receiptReference } },
        ledger: { type: 'SettlePayoutFunds', data: { payoutId } },
        float: { type: 'SettleFloat', data: { environment, payoutId } },
      }),
      { movesMoney: true },
    );
  }
}

@CommandHandler(FailPayoutCommand)
export class FailPayoutHandler implements ICommandHandler<FailPayoutCommand, PayoutState> {
  constructor(private readonly transitions: PayoutTransitions) {}

  execute({ payoutId, reason }: FailPayoutCommand): Promise<PayoutState> {
    return this.transitions.run(
      payoutId,
      ({ environment }) => ({
        payout: { type: 'FailPayout', data: { reason } },
        ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'failed' } },
        // Nothing was set aside when the payout fails before the float covered it: then this writes nothing.
        float: { type: 'ReleaseFloat', data: { environment, payoutId } },
      }),
      { movesMoney: true },
    );
  }
}

/** Unclaimed payouts never touched the float (it is reserved only after the recipient confirms). */
@CommandHandler(ExpirePayoutCommand)
export class ExpirePayoutHandler implements ICommandHandler<ExpirePayoutCommand, PayoutState> {
  constructor(private readonly transitions: PayoutTransitions) {}

  execute({ payoutId }: ExpirePayoutCommand): Promise<PayoutState> {
    return this.transitions.run(
      payoutId,
      () => ({
        payout: { type: 'ExpirePayout', data: {} },
        ledger: { type: 'ReleasePayoutFunds', data: { payoutId, reason: 'expired' } },
      }),
      { movesMoney: true },
    );
  }
}
