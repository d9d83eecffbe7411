import { Logger } from '@nestjs/common';
import type { Clock } from '@payouts/clock';
import { IDEMPOTENCY_RETENTION_DAYS, IdempotencyStore } from '@payouts/idempotency';

/**
 * Idempotency keys past their retention are deleted this often. begin already treats them as
 * gone, so the purge only reclaims space: hourly is plenty, and each purge is bounded (batches).
 */
const IDEMPOTENCY_PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** After a failed purge, sooner than the full interval. */
const IDEMPOTENCY_PURGE_RETRY_MS = 60_000;

/**
 * Step 4 of the worker (PayoutWorker): at start and then hourly, deletes idempotency keys (and
 * their stored answers) first used more than IDEMPOTENCY_RETENTION_DAYS ago.
 */
export class IdempotencyPurge {
  /** Production time in ms of the next purge; 0: on the first pass. */
  private nextPurgeAtMs = 0;

  constructor(
    private readonly idempotency: IdempotencyStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Deletes idempotency keys (and their stored answers) past retention, when due. Never throws. */
  async passIfDue(stopping: boolean): Promise<void> {
    const nowMs = this.clock.now().getTime();
    if (stopping || nowMs < this.nextPurgeAtMs) return;
    try {
      const purged = await this.idempotency.purgeExpired();
      this.nextPurgeAtMs = nowMs + IDEMPOTENCY_PURGE_INTERVAL_MS;
      this.logger.log(`purged ${purged} idempotency keys older than ${IDEMPOTENCY_RETENTION_DAYS} days`);
    } catch (error) {
      this.nextPurgeAtMs = nowMs + IDEMPOTENCY_PURGE_RETRY_MS;
      this.logger.error(`the idempotency key purge failed: ${describe(error)}`);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
