import { Command } from '@nestjs/cqrs';
import { Environment, PayoutState } from '@payouts/domain';

export class CancelPayoutCommand extends Command<PayoutState> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly payoutId: string,
  ) {
    super();
  }
}
