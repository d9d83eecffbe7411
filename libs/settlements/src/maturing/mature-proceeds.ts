import { Command, CommandHandler } from '@nestjs/cqrs';
import { decideLedger, LedgerOwner, LedgerState, MAX_MATURED_PER_COMMAND } from '@payouts/domain';
import {
  Decision,
  LoadedAggregate,
  LedgerCommandHandler,
  LedgerCommandOn,
  ledgerDecision,
} from '@payouts/write-side';
import { nextMaturingRow } from '../shared/funds-job-rows';

export interface MatureProceedsResult {
  /** Payments cleared by this command (at most MAX_MATURED_PER_COMMAND). */
  matured: number;
}

/** The worker: clears the ledger's pending payments whose time has come, a bounded number at once. */
export class MatureProceedsCommand extends Command<MatureProceedsResult> implements LedgerCommandOn {
  constructor(
    readonly ledgerStreamId: string,
    readonly max: number = MAX_MATURED_PER_COMMAND,
  ) {
    super();
  }
}

@CommandHandler(MatureProceedsCommand)
export class MatureProceedsHandler extends LedgerCommandHandler<MatureProceedsCommand, MatureProceedsResult> {
  protected decideOn(
    command: MatureProceedsCommand,
    ledger: LoadedAggregate<LedgerState>,
    owner: LedgerOwner,
    now: Date,
  ): Decision<MatureProceedsResult> {
    const max = Math.min(command.max, MAX_MATURED_PER_COMMAND);
    const events = decideLedger({ type: 'MatureProceeds', data: { max } }, ledger.state, now);
    return ledgerDecision(
      command.ledgerStreamId,
      ledger,
      events,
      (after) => [nextMaturingRow(command.ledgerStreamId, owner.environment, after)],
      () => ({ matured: events.length }),
    );
  }
}
