import { Command } from '@nestjs/cqrs';
import { Environment, PayoutState } from '@payouts/domain';
import type { IdempotencyHold } from '@payouts/idempotency';

export class CancelPayoutCommand extends Command<PayoutState> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly payoutId: string,
    /** The request's Idempotency-Key: its answer commits with the cancel. */
    readonly hold?: IdempotencyHold,
  ) {
    super();
  }
}
