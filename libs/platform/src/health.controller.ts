import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { loadMigrations } from '@payouts/database';
import type { SqlClient } from '@payouts/database';
import type { EventStore } from '@payouts/event-store';
import { ApiError, ErrorBody } from '@payouts/http';
import { READ_MODEL_SUBSCRIPTION_ID } from '@payouts/read-models';
import { LiveResponse, ReadyResponse } from './health.schemas';
import { EVENT_STORE, SQL_CLIENT } from './tokens';

/** Events of projector lag counted at most, per readiness probe. */
const PROJECTION_LAG_CAP = 1_000;

/**
 * Liveness and readiness for orchestrators. Ready means: the database answers, every migration
 * shipped with this build is applied, and the read-model projector has caught up with the feed
 * at least once since this process started (then it stays ready while it keeps up).
 */
@Controller('health')
@ApiTags('Health')
// For orchestrators and load balancers: no credential (an empty security requirement).
@ApiSecurity({})
// Any route: a request target that cannot be decoded, or NUL in the query (createApp's hooks).
@ApiResponse({ status: 400, type: ErrorBody, description: 'Invalid request target: `invalid_request`' })
export class HealthController {
  private caughtUpOnce = false;
  private readonly expectedMigrations = loadMigrations().map((m) => m.name);

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: LiveResponse })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: migrations applied and the projector caught up' })
  @ApiOkResponse({ type: ReadyResponse })
  @ApiResponse({ status: 503, type: ErrorBody, description: 'Not ready yet: `not_ready`, with the reasons' })
  async ready(): Promise<{ status: 'ready'; projection_lag: number }> {
    const checks: Record<string, string> = {};
    try {
      const applied = await this.db.query<{ name: string }>('SELECT name FROM schema_migrations');
      const names = new Set(applied.rows.map((r) => r.name));
      const missing = this.expectedMigrations.filter((name) => !names.has(name));
      if (missing.length > 0) checks.migrations = `pending: ${missing.join(', ')}`;
      // A bound keeps the probe cheap: past it, "behind" is all readiness needs to know.
      const lag = await this.store.subscriptionLag(READ_MODEL_SUBSCRIPTION_ID, PROJECTION_LAG_CAP);
      if (lag === 0) this.caughtUpOnce = true;
      if (!this.caughtUpOnce) checks.projector = `catching up (${lag} events behind)`;
      if (Object.keys(checks).length === 0) return { status: 'ready', projection_lag: lag };
    } catch (error) {
      checks.database = error instanceof Error ? error.message : 'unreachable';
    }
    const reasons = Object.entries(checks).map(([name, reason]) => `${name}: ${reason}`);
    throw new ApiError(503, 'not_ready', reasons.join('; '));
  }
}
