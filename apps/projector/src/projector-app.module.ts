import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@payouts/config';
import { HealthModule, InfrastructureModule, MetricsModule } from '@payouts/platform';
import { ProjectorModule } from './projector.module';

@Module({})
export class ProjectorAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ProjectorAppModule,
      imports: [
        InfrastructureModule.forRoot(config, 'projector'),
        HealthModule,
        MetricsModule,
        ProjectorModule,
      ],
    };
  }
}
