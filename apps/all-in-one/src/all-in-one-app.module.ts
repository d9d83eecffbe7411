import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@payouts/config';
import { HealthModule, InfrastructureModule, MetricsModule } from '@payouts/platform';
import { GatewayModule } from '../../api-gateway/src/gateway.module';
import { ProjectorModule } from '../../projector/src/projector.module';
import { WebhookDispatcherModule } from '../../webhook-dispatcher/src/webhook-dispatcher.module';
import { WorkerModule } from '../../worker/src/worker.module';

/**
 * The embedded start (`npm start`): every app's modules in one process on one database
 * (embedded PGlite unless DATABASE_URL is set), so nothing has to be installed to run it.
 */
@Module({})
export class AllInOneAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AllInOneAppModule,
      imports: [
        InfrastructureModule.forRoot(config, 'all-in-one'),
        HealthModule,
        MetricsModule,
        GatewayModule,
        ProjectorModule,
        WorkerModule,
        WebhookDispatcherModule,
      ],
    };
  }
}
