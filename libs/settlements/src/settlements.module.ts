import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { SqlClient } from '@payouts/database';
import { SQL_CLIENT } from '@payouts/platform';
import { WriteSideModule } from '@payouts/write-side';
import { MatureProceedsHandler } from './maturing/mature-proceeds';
import { PricingQueries, SetPricingHandler } from './pricing/account-pricing';
import { FundsQueries } from './reads/funds-queries';
import { SetRetainedTargetHandler } from './retained-target/set-retained-target';
import { SETTLEMENT_RAIL } from './settlement-rail/settlement-rail.port';
import { SettlementRailSettings, SimulatedSettlementRail } from './settlement-rail/simulated-settlement-rail';
import { CompleteSettlementHandler, StartSettlementHandler } from './settlement-run/settlement-commands';
import { SettlementRuns } from './settlement-run/settlement-runs';

/**
 * The funds flow's commands on the write path (docs/design.md#funds-flow): pricing, maturing, retained
 * target, settlements; the settlement rail (its simulator, the only adapter) and the runs that
 * use it; FundsQueries, the funds reads. Needs the platform's InfrastructureModule (global).
 */
@Module({
  imports: [CqrsModule, WriteSideModule],
  providers: [
    {
      provide: SettlementRailSettings,
      useFactory: (db: SqlClient) => new SettlementRailSettings(db),
      inject: [SQL_CLIENT],
    },
    {
      provide: SETTLEMENT_RAIL,
      useFactory: (db: SqlClient, settings: SettlementRailSettings) =>
        new SimulatedSettlementRail(db, settings),
      inject: [SQL_CLIENT, SettlementRailSettings],
    },
    SetPricingHandler,
    PricingQueries,
    MatureProceedsHandler,
    SetRetainedTargetHandler,
    StartSettlementHandler,
    CompleteSettlementHandler,
    SettlementRuns,
    FundsQueries,
  ],
  exports: [SettlementRailSettings, SETTLEMENT_RAIL, PricingQueries, SettlementRuns, FundsQueries],
})
export class SettlementsModule {}
