import { CommandHandler } from '@nestjs/cqrs';
import { decideLedger, LedgerCommand, LedgerOwner, LedgerState } from '@payouts/domain';
import { Decision, LedgerCommandHandler, ledgerDecision, LoadedAggregate } from '@payouts/write-side';
import { CreditFundsCommand, LedgerCommandResult, SetLedgerLimitsCommand } from './ledger-commands';

type LedgerAdminCommand = CreditFundsCommand | SetLedgerLimitsCommand;

/** An operator's or the dashboard's command on one ledger: decide, plan one append. */
abstract class LedgerAdminHandler<Command extends LedgerAdminCommand> extends LedgerCommandHandler<
  Command,
  LedgerCommandResult
> {
  protected decideOn(
    command: Command,
    ledger: LoadedAggregate<LedgerState>,
    _owner: LedgerOwner,
    now: Date,
  ): Decision<LedgerCommandResult> {
    const events = decideLedger(this.ledgerCommand(command), ledger.state, now);
    return ledgerDecision(
      command.ledgerStreamId,
      ledger,
      events,
      () => [],
      (_state, version) => ({ ledgerVersion: version }),
    );
  }

  protected abstract ledgerCommand(command: Command): LedgerCommand;
}

@CommandHandler(CreditFundsCommand)
export class CreditFundsHandler extends LedgerAdminHandler<CreditFundsCommand> {
  protected ledgerCommand({
    accountId,
    environment,
    amount,
    reference,
    reason,
  }: CreditFundsCommand): LedgerCommand {
    return { type: 'CreditFunds', data: { accountId, environment, amount, reference, reason } };
  }
}

@CommandHandler(SetLedgerLimitsCommand)
export class SetLedgerLimitsHandler extends LedgerAdminHandler<SetLedgerLimitsCommand> {
  protected ledgerCommand({ accountId, environment, limits }: SetLedgerLimitsCommand): LedgerCommand {
    return { type: 'SetLedgerLimits', data: { accountId, environment, limits } };
  }
}
