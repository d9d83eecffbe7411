import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CancelPayoutHandler } from './commands/cancel-payout.handler';
import { CreatePayoutHandler } from './commands/create-payout.handler';
import { CreditFundsHandler, SetLedgerLimitsHandler } from './commands/ledger-commands.handler';
import { IssueClaimLinkHandler, StartRedirectSessionHandler } from './commands/payout-access.handlers';
import { GetFloatHandler, ReserveFloatHandler, TopUpFloatHandler } from './commands/float.handlers';
import {
  ConfirmPayoutHandler,
  ConsumeRedirectHandoffHandler,
  DecideReviewHandler,
  ExpirePayoutHandler,
  FailPayoutHandler,
  FlagForReviewHandler,
  MarkAwaitingFloatHandler,
  RecordPayoutPaidHandler,
} from './commands/payout-lifecycle.handlers';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG, EVENT_STORE } from '@payouts/platform';
import { resolveEncryptionKey } from '@payouts/accounts';
import type { EventStore } from '@payouts/event-store';
import { AggregateCache } from './support/aggregate-cache';
import { ClaimLinkTokens } from './support/claim-link-tokens';
import { GroupCommit } from './support/group-commit';
import { LedgerLocks } from './support/ledger-locks';
import { PayoutTransitions } from './support/payout-transitions';

/**
 * Payout and ledger command handlers, and ClaimLinkTokens (exported: the gateway shows a link again
 * with it). Needs EVENT_STORE, CLOCK and APP_CONFIG from the platform module; the claim-link key
 * comes from ENCRYPTION_KEY, or the key file of the embedded start when it is unset.
 */
@Module({
  imports: [CqrsModule],
  providers: [
    {
      provide: ClaimLinkTokens,
      useFactory: (config: AppConfig) => ClaimLinkTokens.fromEncryptionKey(resolveEncryptionKey(config)),
      inject: [APP_CONFIG],
    },
    LedgerLocks,
    AggregateCache,
    {
      provide: GroupCommit,
      useFactory: (store: EventStore) => new GroupCommit(store),
      inject: [EVENT_STORE],
    },
    CreatePayoutHandler,
    CancelPayoutHandler,
    CreditFundsHandler,
    SetLedgerLimitsHandler,
    IssueClaimLinkHandler,
    StartRedirectSessionHandler,
    PayoutTransitions,
    ConfirmPayoutHandler,
    ConsumeRedirectHandoffHandler,
    MarkAwaitingFloatHandler,
    FlagForReviewHandler,
    DecideReviewHandler,
    RecordPayoutPaidHandler,
    FailPayoutHandler,
    ExpirePayoutHandler,
    TopUpFloatHandler,
    ReserveFloatHandler,
    GetFloatHandler,
  ],
  exports: [ClaimLinkTokens],
})
export class PayoutsModule {}
