import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@payouts/config';
import { PayoutsModule } from '@payouts/payouts';
import { HealthModule, InfrastructureModule } from '@payouts/platform';

/** Authenticates, validates, dispatches commands and answers queries (the REST API arrives per issue). */
@Module({})
export class ApiGatewayAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiGatewayAppModule,
      imports: [InfrastructureModule.forRoot(config, 'api-gateway'), HealthModule, PayoutsModule],
    };
  }
}
