import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorBody } from '@payouts/http';
import { PROMETHEUS_CONTENT_TYPE } from '@payouts/observability';
import type { Metrics } from '@payouts/observability';
import { METRICS } from './tokens';

/**
 * The app's metrics for Prometheus (docs/design.md#metrics), beside the health checks: for the
 * operator's scraper, with no credential and outside the rate limit, like them. It holds no
 * secret: labels are route templates, methods, statuses and subscription names.
 */
@Controller('metrics')
@ApiTags('Health')
// For the scraper: no credential (an empty security requirement), as for /health.
@ApiSecurity({})
// Any route: a request target that cannot be decoded, or NUL in the query (createApp's hooks).
@ApiResponse({ status: 400, type: ErrorBody, description: 'Invalid request target: `invalid_request`' })
export class MetricsController {
  constructor(@Inject(METRICS) private readonly metrics: Metrics) {}

  @Get()
  @ApiOperation({ summary: 'Metrics in the Prometheus text format' })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description:
      'Every metric of the app in the text format, version 0.0.4 (README, "Metrics"); a measurement that fails is left out',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @Header('Content-Type', PROMETHEUS_CONTENT_TYPE)
  // Each answer is a new reading.
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.text();
  }
}
