import { Command, CommandHandler } from '@nestjs/cqrs';
import {
  decideLedger,
  Environment,
  LedgerOwner,
  LedgerState,
  SettlementStarted,
  SettlementTrigger,
} from '@payouts/domain';
import {
  Decision,
  LoadedAggregate,
  LedgerCommandHandler,
  LedgerCommandOn,
  ledgerDecision,
} from '@payouts/write-side';
import { settlementCompletedRow, settlementStartedRow } from '../shared/funds-job-rows';

/** A settlement this command started; what the run-now answer lists. */
export interface StartedSettlement {
  settlementId: string;
  accountId: string;
  environment: Environment;
  currency: string;
  amount: string;
  retainedTarget: string;
  trigger: SettlementTrigger;
  startedAt: string;
}

/**
 * Starts a settlement of the ledger's available − retained target when that is at least
 * MIN_SETTLEMENT; otherwise, or when the id was used before, nothing (`started: null`). The
 * ledger's expected version keeps a payout created meanwhile from being counted twice.
 */
export class StartSettlementCommand
  extends Command<{ started: StartedSettlement | null }>
  implements LedgerCommandOn
{
  constructor(
    readonly ledgerStreamId: string,
    readonly settlementId: string,
    readonly trigger: SettlementTrigger,
  ) {
    super();
  }
}

@CommandHandler(StartSettlementCommand)
export class StartSettlementHandler extends LedgerCommandHandler<
  StartSettlementCommand,
  { started: StartedSettlement | null }
> {
  protected decideOn(
    command: StartSettlementCommand,
    ledger: LoadedAggregate<LedgerState>,
    owner: LedgerOwner,
    now: Date,
  ): Decision<{ started: StartedSettlement | null }> {
    const { ledgerStreamId, settlementId, trigger } = command;
    const events = decideLedger(
      { type: 'StartSettlement', data: { settlementId, trigger } },
      ledger.state,
      now,
    );
    const started = events.find((event): event is SettlementStarted => event.type === 'SettlementStarted');
    return ledgerDecision(
      ledgerStreamId,
      ledger,
      events,
      () =>
        started
          ? [
              settlementStartedRow(
                settlementId,
                ledgerStreamId,
                owner.environment,
                started.data.amount,
                started.data.at,
              ),
            ]
          : [],
      () => ({
        started: started
          ? {
              settlementId,
              accountId: owner.accountId,
              environment: owner.environment,
              currency: owner.currency,
              amount: started.data.amount,
              retainedTarget: started.data.retainedTarget,
              trigger,
              startedAt: started.data.at,
            }
          : null,
      }),
    );
  }
}

export type SettlementOutcome = { outcome: 'paid' } | { outcome: 'failed'; reason: string };

/**
 * The settlement rail's answer: paid (the held amount leaves the ledger) or failed (it returns to
 * available). The same answer again changes nothing; the other answer is refused
 * (invalid_transition), an unknown settlement too (not_found).
 */
export class CompleteSettlementCommand extends Command<{ completed: boolean }> implements LedgerCommandOn {
  constructor(
    readonly ledgerStreamId: string,
    readonly settlementId: string,
    readonly answer: SettlementOutcome,
  ) {
    super();
  }
}

@CommandHandler(CompleteSettlementCommand)
export class CompleteSettlementHandler extends LedgerCommandHandler<
  CompleteSettlementCommand,
  { completed: boolean }
> {
  protected decideOn(
    command: CompleteSettlementCommand,
    ledger: LoadedAggregate<LedgerState>,
    _owner: LedgerOwner,
    now: Date,
  ): Decision<{ completed: boolean }> {
    const { ledgerStreamId, settlementId, answer } = command;
    const events = decideLedger(
      {
        type: 'CompleteSettlement',
        data:
          answer.outcome === 'paid'
            ? { settlementId, outcome: 'paid' }
            : { settlementId, outcome: 'failed', reason: answer.reason },
      },
      ledger.state,
      now,
    );
    return ledgerDecision(
      ledgerStreamId,
      ledger,
      events,
      () => [settlementCompletedRow(settlementId, now.toISOString())],
      () => ({ completed: events.length > 0 }),
    );
  }
}
