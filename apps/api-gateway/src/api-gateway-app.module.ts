import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@payouts/config';
import { HealthModule, InfrastructureModule, MetricsModule } from '@payouts/platform';
import { GatewayModule } from './gateway.module';

/** Authenticates, validates, dispatches commands and answers queries (the REST API arrives per issue). */
@Module({})
export class ApiGatewayAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiGatewayAppModule,
      imports: [
        InfrastructureModule.forRoot(config, 'api-gateway'),
        HealthModule,
        MetricsModule,
        GatewayModule,
      ],
    };
  }
}
