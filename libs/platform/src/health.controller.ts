import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { AppConfig } from '@payouts/config';
import { loadMigrations } from '@payouts/database';
import type { SqlClient } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import { ApiError, ErrorBody } from '@payouts/http';
import { READ_MODEL_SUBSCRIPTION_ID } from '@payouts/read-models';
import { LiveResponse, ReadyResponse } from './health.schemas';
import { APP_CONFIG, EVENT_STORE, SQL_CLIENT } from './tokens';

/**
 * Liveness and readiness for orchestrators. Ready means: the database answers, every migration
 * shipped with this build is applied, the read-model projector has caught up with the feed at
 * least once since this process started (a new replica takes no traffic on a backlog), and it
 * is no more than READINESS_MAX_LAG_EVENTS events behind the feed (docs/design.md#metrics). The lag is the event
 * store port's subscriptionLag, as in the metrics, counted one past the threshold at most so the
 * probe stays cheap: past it, "behind" is all readiness needs to know.
 */
@Controller('health')
@ApiTags('Health')
// For orchestrators and load balancers: no credential (an empty security requirement).
@ApiSecurity({})
// Any route: a request target that cannot be decoded, or NUL in the query (createApp's hooks).
@ApiResponse({ status: 400, type: ErrorBody, description: 'Invalid request target: `invalid_request`' })
export class HealthController {
  private readonly expectedMigrations = loadMigrations().map((m) => m.name);
  private readonly maxLag: number;
  private caughtUpOnce = false;

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.maxLag = config.readinessMaxLagEvents;
  }

  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: LiveResponse })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: migrations applied and the projector not too far behind' })
  @ApiOkResponse({ type: ReadyResponse })
  @ApiResponse({ status: 503, type: ErrorBody, description: 'Not ready yet: `not_ready`, with the reasons' })
  async ready(): Promise<{ status: 'ready'; projection_lag: number }> {
    const checks: Record<string, string> = {};
    try {
      const applied = await this.db.query<{ name: string }>('SELECT name FROM schema_migrations');
      const names = new Set(applied.rows.map((r) => r.name));
      const missing = this.expectedMigrations.filter((name) => !names.has(name));
      if (missing.length > 0) checks.migrations = `pending: ${missing.join(', ')}`;
      const lag = await this.store.subscriptionLag(READ_MODEL_SUBSCRIPTION_ID, this.maxLag + 1);
      if (lag === 0) this.caughtUpOnce = true;
      if (!this.caughtUpOnce) checks.projector = `catching up (${lag} events behind)`;
      else if (lag > this.maxLag) {
        checks.projector = `more than ${this.maxLag} events behind (READINESS_MAX_LAG_EVENTS)`;
      }
      if (Object.keys(checks).length === 0) return { status: 'ready', projection_lag: lag };
    } catch (error) {
      checks.database = error instanceof Error ? error.message : 'unreachable';
    }
    const reasons = Object.entries(checks).map(([name, reason]) => `${name}: ${reason}`);
    throw new ApiError(503, 'not_ready', reasons.join('; '));
  }
}
