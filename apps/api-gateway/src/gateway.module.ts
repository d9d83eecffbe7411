import { Module } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import { IdempotencyStore } from '@payouts/idempotency';
import { PayoutsModule } from '@payouts/payouts';
import { APP_CONFIG, SQL_CLIENT } from '@payouts/platform';
import { resolveEncryptionKey } from '@payouts/accounts';
import { GatewayAccountsModule } from './accounts.module';
import { DashboardController } from './admin/dashboard.controller';
import { OperatorController } from './admin/operator.controller';
import { PayoutWebhookController } from './admin/payout-webhook.controller';
import { PayoutAuthGuard } from './auth/payout-auth.guard';
import { IDEMPOTENCY } from './gateway.tokens';
import { IdempotentRequests } from './idempotency/idempotent-requests';
import { SealedAnswerUrls } from './payouts/sealed-answer-urls';
import { PayoutQueries } from './payouts/payout-queries';
import { PayoutsController } from './payouts/payouts.controller';
import { ReturnUrlPolicy } from './payouts/return-url-policy';
import { RecipientPagesModule } from './recipient/recipient-pages.module';

/** The merchant-facing REST API (payouts, the operator's and the dashboard's administration) and the recipient's pages. */
@Module({
  imports: [PayoutsModule, GatewayAccountsModule, RecipientPagesModule],
  controllers: [PayoutsController, OperatorController, DashboardController, PayoutWebhookController],
  providers: [
    { provide: IDEMPOTENCY, useFactory: (db: SqlClient) => new IdempotencyStore(db), inject: [SQL_CLIENT] },
    {
      provide: SealedAnswerUrls,
      useFactory: (config: AppConfig) => new SealedAnswerUrls(resolveEncryptionKey(config)),
      inject: [APP_CONFIG],
    },
    PayoutAuthGuard,
    IdempotentRequests,
    PayoutQueries,
    ReturnUrlPolicy,
  ],
})
export class GatewayModule {}
