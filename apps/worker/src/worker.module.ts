import { Module } from '@nestjs/common';
import { CheckoutModule } from '@payouts/checkout';
import { ClaimsModule } from '@payouts/claims';
import { PayoutRailModule } from '@payouts/payout-rail';
import { PayoutsModule } from '@payouts/payouts';
import { SettlementsModule } from '@payouts/settlements';
import { FundsWorker } from './funds-worker';
import { OrderExpiry } from './order-expiry';
import { PayoutWorker } from './payout-worker';

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
