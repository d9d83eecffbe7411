import { Module } from '@nestjs/common';
import { CheckoutModule, OrderExpiry } from '@payouts/checkout';
import { ClaimsModule } from '@payouts/claims';
import { PayoutRailModule, PayoutWorker } from '@payouts/payout-rail';
import { PayoutsModule } from '@payouts/payouts';
import { FundsWorker, SettlementsModule } from '@payouts/settlements';

/**
 * Runs what time or the outside world triggers: sending confirmed payouts through the payout rail
 * behind the float queue, the rail's answers, review outcomes, expiry timers, and the hourly purge
 * of idempotency keys past their 30 days (PayoutWorker); unpaid checkout orders' expiry (OrderExpiry);
 * maturing proceeds and settlement runs (FundsWorker).
 * Needs the platform's InfrastructureModule (global); also imported by apps/all-in-one.
 */
@Module({
  imports: [PayoutsModule, PayoutRailModule, ClaimsModule, CheckoutModule, SettlementsModule],
  providers: [PayoutWorker, OrderExpiry, FundsWorker],
  exports: [PayoutWorker, OrderExpiry, FundsWorker],
})
export class WorkerModule {}
