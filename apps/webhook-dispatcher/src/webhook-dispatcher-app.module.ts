import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@payouts/config';
import { HealthModule, InfrastructureModule, MetricsModule } from '@payouts/platform';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';

@Module({})
export class WebhookDispatcherAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WebhookDispatcherAppModule,
      imports: [
        InfrastructureModule.forRoot(config, 'webhook-dispatcher'),
        HealthModule,
        MetricsModule,
        WebhookDispatcherModule,
      ],
    };
  }
}
