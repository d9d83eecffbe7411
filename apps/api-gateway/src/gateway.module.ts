import { Module } from '@nestjs/common';
import { IdempotencyModule } from '@payouts/idempotency';
import { PayoutsModule } from '@payouts/payouts';
import { GatewayAccountsModule } from './accounts.module';
import { DashboardController } from './admin/dashboard.controller';
import { OperatorController } from './admin/operator.controller';
import { PayoutWebhookController } from './admin/payout-webhook.controller';
import { PayoutAuthGuard } from './auth/payout-auth.guard';
import { PayoutQueries } from './payouts/payout-queries';
import { PayoutsController } from './payouts/payouts.controller';
import { ReturnUrlPolicy } from './payouts/return-url-policy';
import { RecipientPagesModule } from './recipient/recipient-pages.module';

/** The merchant-facing REST API (payouts, the operator's and the dashboard's administration) and the recipient's pages. */
@Module({
  imports: [PayoutsModule, IdempotencyModule, GatewayAccountsModule, RecipientPagesModule],
  controllers: [PayoutsController, OperatorController, DashboardController, PayoutWebhookController],
  providers: [PayoutAuthGuard, PayoutQueries, ReturnUrlPolicy],
})
export class GatewayModule {}
