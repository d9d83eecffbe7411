import { Command, CommandHandler } from '@nestjs/cqrs';
import { decideLedger, formatMoney, LedgerState } from '@payouts/domain';
import {
  Decision,
  LoadedAggregate,
  LedgerCommandHandler,
  LedgerCommandOn,
  ledgerDecision,
} from '@payouts/write-side';

export interface RetainedTargetResult {
  retainedTarget: string;
  ledgerVersion: number;
}

/**
 * The account administrator: how much of available the automatic settlement leaves on the ledger
 * (for payouts, say). Not a cap on payouts. The amount is refused by the decider when malformed.
 */
export class SetRetainedTargetCommand extends Command<RetainedTargetResult> implements LedgerCommandOn {
  constructor(
    readonly ledgerStreamId: string,
    readonly amount: string,
  ) {
    super();
  }
}

@CommandHandler(SetRetainedTargetCommand)
export class SetRetainedTargetHandler extends LedgerCommandHandler<
  SetRetainedTargetCommand,
  RetainedTargetResult
> {
  protected decideOn(
    command: SetRetainedTargetCommand,
    ledger: LoadedAggregate<LedgerState>,
    _owner: unknown,
    now: Date,
  ): Decision<RetainedTargetResult> {
    const events = decideLedger(
      { type: 'SetRetainedTarget', data: { amount: command.amount } },
      ledger.state,
      now,
    );
    return ledgerDecision(
      command.ledgerStreamId,
      ledger,
      events,
      () => [],
      (after, version) => ({ retainedTarget: formatMoney(after.retainedTarget), ledgerVersion: version }),
    );
  }
}
