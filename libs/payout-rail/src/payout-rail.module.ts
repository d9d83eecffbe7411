import { Module } from '@nestjs/common';
import type { AppConfig } from '@payouts/config';
import type { SqlClient } from '@payouts/database';
import type { Clock } from '@payouts/clock';
import { APP_CONFIG, CLOCK, SQL_CLIENT } from '@payouts/platform';
import { PAYOUT_RAIL } from './payout-rail.port';
import { SimulatedPayoutRail } from './simulated-payout-rail';

/** PAYOUT_RAIL: the built-in simulator (the only adapter). Needs SQL_CLIENT, CLOCK and APP_CONFIG. */
@Module({
  providers: [
    {
      provide: PAYOUT_RAIL,
      useFactory: (db: SqlClient, clock: Clock, config: AppConfig) =>
        new SimulatedPayoutRail(db, clock, config.railSimulatorDelayMs),
      inject: [SQL_CLIENT, CLOCK, APP_CONFIG],
    },
  ],
  exports: [PAYOUT_RAIL],
})
export class PayoutRailModule {}
