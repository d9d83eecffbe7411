import { Module } from '@nestjs/common';
import { CheckoutModule } from '@payouts/checkout';
import { IdempotencyModule } from '@payouts/idempotency';
import { PayoutsModule } from '@payouts/payouts';
import { SettlementsModule } from '@payouts/settlements';
import { EventsFeed } from '@payouts/events-feed';
import { GatewayAccountsModule } from './accounts.module';
import { CheckoutWebhookController } from './admin/checkout-webhook.controller';
import { DashboardController } from './admin/dashboard.controller';
import { FundsOperatorController } from './admin/funds-operator.controller';
import { OperatorController } from './admin/operator.controller';
import { PayoutWebhookController } from './admin/payout-webhook.controller';
import { PayoutAuthGuard } from './auth/payout-auth.guard';
import { BalanceTransactionsRoute } from './funds/balance-transactions/balance-transactions.route';
import { SettlementsRoute } from './funds/settlements/settlements.route';
import { EventsRoute } from './events/events.route';
import { CheckoutAuthGuard } from './checkout/checkout-auth.guard';
import { CreateOrderRoute } from './checkout/create-order/create-order.route';
import { CheckoutReadsRoute } from './checkout/reads/checkout-reads.route';
import { TestWebhookRoute } from './checkout/test-webhook/test-webhook.route';
import { CancelPayoutRoute } from './payouts/cancel-payout/cancel-payout.route';
import { ClaimLinkRoute } from './payouts/claim-link/claim-link.route';
import { CreatePayoutRoute } from './payouts/create-payout/create-payout.route';
import { PayoutReadsRoute } from './payouts/reads/payout-reads.route';
import { RedirectSessionRoute } from './payouts/redirect-session/redirect-session.route';
import { ReturnUrlPolicy } from './payouts/create-payout/return-url-policy';
import { CheckoutPagesModule } from './checkout-pages/checkout-pages.module';
import { DashboardPagesModule } from './dashboard-pages/dashboard-pages.module';
import { RecipientPagesModule } from './recipient/recipient-pages.module';

/** The merchant-facing REST API (checkout, payouts, the operator's and the dashboard's administration), the recipient's pages and the dashboard's pages. */
@Module({
  imports: [
    PayoutsModule,
    CheckoutModule,
    SettlementsModule,
    IdempotencyModule,
    GatewayAccountsModule,
    RecipientPagesModule,
    CheckoutPagesModule,
    DashboardPagesModule,
  ],
  controllers: [
    CreatePayoutRoute,
    PayoutReadsRoute,
    ClaimLinkRoute,
    RedirectSessionRoute,
    CancelPayoutRoute,
    BalanceTransactionsRoute,
    SettlementsRoute,
    EventsRoute,
    CreateOrderRoute,
    CheckoutReadsRoute,
    TestWebhookRoute,
    OperatorController,
    FundsOperatorController,
    DashboardController,
    PayoutWebhookController,
    CheckoutWebhookController,
  ],
  providers: [PayoutAuthGuard, CheckoutAuthGuard, ReturnUrlPolicy, EventsFeed],
})
export class GatewayModule {}
