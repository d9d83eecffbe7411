import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@payouts/config';
import { HealthModule, InfrastructureModule, MetricsModule } from '@payouts/platform';
import { WorkerModule } from './worker.module';

@Module({})
export class WorkerAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerAppModule,
      imports: [InfrastructureModule.forRoot(config, 'worker'), HealthModule, MetricsModule, WorkerModule],
    };
  }
}
