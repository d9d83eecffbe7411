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
import { EVENT_STORE } from '@payouts/platform';
import type { EventStore } from '@payouts/event-store';
import { AggregateCache } from './support/aggregate-cache';
import { GroupCommit } from './support/group-commit';
import { LedgerLocks } from './support/ledger-locks';
import { PayoutTransitions } from './support/payout-transitions';

/** Payout and ledger command handlers. Needs EVENT_STORE and CLOCK from the platform module. */
@Module({
  imports: [CqrsModule],
  providers: [
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
})
export class PayoutsModule {}
