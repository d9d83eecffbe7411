import { Command } from '@nestjs/cqrs';
import { Environment } from '@payouts/domain';
import type { IdempotencyHold } from '@payouts/idempotency';
import type { PayoutAccessResult } from '../shared/payout-access';

/**
 * Get or rotate a link payout's claim link (`POST /api/payout/{payout_id}/link`). Without rotate
 * nothing is written and the current link is shown again (derived by ClaimLinkTokens); with rotate
 * a new link is issued. Either way the result's `answer` is the endpoint's body, with the link.
 */
export class IssueClaimLinkCommand extends Command<PayoutAccessResult> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly payoutId: string,
    readonly rotate: boolean,
    /** The request's Idempotency-Key: its answer commits with the command. */
    readonly hold?: IdempotencyHold,
  ) {
    super();
  }
}
