import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '@payouts/config';
import { APP_CONFIG } from '@payouts/platform';
import { resolveEncryptionKeys } from '@payouts/accounts';
import { WriteSideModule } from '@payouts/write-side';
import { CancelPayoutHandler } from './cancel-payout/cancel-payout.handler';
import { IssueClaimLinkHandler } from './claim-link/issue-claim-link.handler';
import { CreatePayoutHandler } from './create-payout/create-payout.handler';
import { GetFloatHandler, ReserveFloatHandler, TopUpFloatHandler } from './float/float.handlers';
import { CreditFundsHandler, SetLedgerLimitsHandler } from './ledger-admin/ledger-commands.handler';
import {
  ConfirmPayoutHandler,
  ConsumeRedirectHandoffHandler,
  DecideReviewHandler,
  ExpirePayoutHandler,
  FailPayoutHandler,
  FlagForReviewHandler,
  MarkAwaitingFloatHandler,
  RecordPayoutPaidHandler,
} from './payout-lifecycle/payout-lifecycle.handlers';
import { PayoutQueries } from './reads/payout-queries';
import { StartRedirectSessionHandler } from './redirect-session/start-redirect-session.handler';
import { ClaimLinkTokens } from './shared/claim-link-tokens';
import { PayoutTransitions } from './shared/payout-transitions';
import { SealedAnswerUrls } from './shared/sealed-answer-urls';

/**
 * Payout and ledger command handlers, one feature folder each, on the write path (WriteSideModule).
 * Exports ClaimLinkTokens and SealedAnswerUrls, both keyed from ENCRYPTION_KEY (or the key file of
 * the embedded start when it is unset), and PayoutQueries, the payout endpoints' reads.
 */
@Module({
  imports: [CqrsModule, WriteSideModule],
  providers: [
    {
      provide: ClaimLinkTokens,
      useFactory: (config: AppConfig) => ClaimLinkTokens.fromEncryptionKey(resolveEncryptionKeys(config)),
      inject: [APP_CONFIG],
    },
    {
      provide: SealedAnswerUrls,
      useFactory: (config: AppConfig) => new SealedAnswerUrls(resolveEncryptionKeys(config)),
      inject: [APP_CONFIG],
    },
    PayoutTransitions,
    CreatePayoutHandler,
    CancelPayoutHandler,
    IssueClaimLinkHandler,
    StartRedirectSessionHandler,
    CreditFundsHandler,
    SetLedgerLimitsHandler,
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
    PayoutQueries,
  ],
  exports: [ClaimLinkTokens, SealedAnswerUrls, PayoutQueries, WriteSideModule],
})
export class PayoutsModule {}
