import { Command } from '@nestjs/cqrs';
import { Environment, LedgerLimits, ledgerStreamId } from '@payouts/domain';

export interface LedgerCommandResult {
  ledgerVersion: number;
}

/** Operator: a manual adjustment crediting an account's USD ledger in one environment, with its reason. */
export class CreditFundsCommand extends Command<LedgerCommandResult> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly amount: string,
    readonly reference: string,
    readonly reason: string = 'operator credit',
  ) {
    super();
  }

  get ledgerStreamId(): string {
    return ledgerStreamId(this.accountId, this.environment);
  }
}

/** Operator: the fee and limits of an account's ledger in one environment. */
export class SetLedgerLimitsCommand extends Command<LedgerCommandResult> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly limits: LedgerLimits,
  ) {
    super();
  }

  get ledgerStreamId(): string {
    return ledgerStreamId(this.accountId, this.environment);
  }
}
