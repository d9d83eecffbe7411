import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import {
  decideLedger,
  evolveLedger,
  initialLedgerState,
  LEDGER_EVENT_SCHEMA_VERSIONS,
  LEDGER_STREAM_TYPE,
  LedgerCommand,
  ledgerStreamId,
} from '@payouts/domain';
import type { EventStore } from '@payouts/event-store';
import type { Clock } from '@payouts/clock';
import { CLOCK, EVENT_STORE } from '@payouts/platform';
import { AggregateCache, Decides, Decision, oneStreamDecision, WritePath } from '@payouts/write-side';
import { CreditFundsCommand, LedgerCommandResult, SetLedgerLimitsCommand } from './ledger-commands';

type LedgerAdminCommand = CreditFundsCommand | SetLedgerLimitsCommand;

/** An operator's or the dashboard's command on one ledger: load it, decide, plan one append. */
@Injectable()
abstract class LedgerAdminHandler<Command extends LedgerAdminCommand> implements Decides<
  Command,
  LedgerCommandResult
> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly cache: AggregateCache,
    private readonly writes: WritePath,
  ) {}

  execute(command: Command): Promise<LedgerCommandResult> {
    return this.writes.execute(command, this);
  }

  locksFor({ accountId, environment }: Command): readonly string[] {
    return [ledgerStreamId(accountId, environment)];
  }

  async decide(command: Command): Promise<Decision<LedgerCommandResult>> {
    const streamId = ledgerStreamId(command.accountId, command.environment);
    const ledger = await this.cache.load(this.store, streamId, evolveLedger, initialLedgerState());
    const events = decideLedger(
      this.ledgerCommand(command),
      ledger.state,
      this.clock.now(command.environment),
    );
    return oneStreamDecision({
      streamId,
      streamType: LEDGER_STREAM_TYPE,
      schemaVersions: LEDGER_EVENT_SCHEMA_VERSIONS,
      loaded: ledger,
      events,
      evolve: evolveLedger,
      result: (_state, version) => ({ ledgerVersion: version }),
    });
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
