import { Command } from '@nestjs/cqrs';
import { Environment, PayoutState } from '@payouts/domain';

export interface PayoutAccessResult {
  payout: PayoutState;
  /** A new link or handoff token (shown once); null when nothing new was issued. */
  accessToken: string | null;
  accessExpiresAt: string | null;
}

/**
 * Get or rotate a link payout's claim link (spec 4.2). Without rotate nothing is written and the
 * payout is returned (showing its current link again is the caller's: ClaimLinkTokens); with
 * rotate a new link is issued.
 */
export class IssueClaimLinkCommand extends Command<PayoutAccessResult> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly payoutId: string,
    readonly rotate: boolean,
  ) {
    super();
  }
}

/** A fresh one-time handoff for a redirect payout (spec 4.2 Create Redirect Session). */
export class StartRedirectSessionCommand extends Command<PayoutAccessResult> {
  constructor(
    readonly accountId: string,
    readonly environment: Environment,
    readonly payoutId: string,
    readonly customerId: string,
  ) {
    super();
  }
}
