import { Command } from '@nestjs/cqrs';
import { Environment } from '@payouts/domain';
import type { IdempotencyHold } from '@payouts/idempotency';
import type { PayoutAccessResult } from '../shared/payout-access';

/**
 * A fresh one-time handoff for a redirect payout (Create Redirect Session,
 * docs/design.md#delivery-links-and-expiry).
 */
export class StartRedirectSessionCommand extends Command<PayoutAccessResult> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly payoutId: string,
    readonly customerId: string,
    /** The request's Idempotency-Key: its answer commits with the command. */
    readonly hold?: IdempotencyHold,
  ) {
    super();
  }
}
