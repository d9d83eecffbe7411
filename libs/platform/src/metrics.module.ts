import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';

/** GET /metrics over the app's registry (METRICS, from InfrastructureModule): each app module imports it. */
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
