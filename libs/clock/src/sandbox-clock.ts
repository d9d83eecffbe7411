import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Environment } from '@payouts/domain';
import type { SqlClient } from '@payouts/database';
import type { Clock } from './clock';

/** How often a process picks up an advance made by another process. */
export const SANDBOX_CLOCK_REFRESH_MS = 1_000;
/** Tiger style: a bound on how far one call may move the sandbox (a year). */
export const MAX_SANDBOX_ADVANCE_SECONDS = 366 * 24 * 3600;

/**
 * Real time for production; real time plus the operator's offset for the sandbox. The offset
 * lives in the database (migration 0005), so every process agrees; this process re-reads it every
 * SANDBOX_CLOCK_REFRESH_MS and at once after its own advance. It only ever moves forward.
 */
@Injectable()
export class SandboxAwareClock implements Clock, OnModuleInit, OnModuleDestroy {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: SqlClient) {}

  now(environment: Environment = 'production'): Date {
    const real = Date.now();
    return new Date(environment === 'sandbox' ? real + this.offsetMs : real);
  }

  async onModuleInit(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch(() => undefined), SANDBOX_CLOCK_REFRESH_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    const { rows } = await this.db.query<{ offset_ms: string }>('SELECT offset_ms::text FROM sandbox_clock');
    this.offsetMs = Number(rows[0]?.offset_ms ?? 0);
  }

  /** Moves the sandbox forward; returns the new sandbox time and total offset. */
  async advance(seconds: number): Promise<{ sandboxNow: Date; offsetSeconds: number }> {
    if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_SANDBOX_ADVANCE_SECONDS) {
      throw new RangeError(`advance_seconds must be a whole number from 1 to ${MAX_SANDBOX_ADVANCE_SECONDS}`);
    }
    const { rows } = await this.db.query<{ offset_ms: string }>(
      'UPDATE sandbox_clock SET offset_ms = offset_ms + $1, updated_at = now() RETURNING offset_ms::text',
      [seconds * 1000],
    );
    this.offsetMs = Number(rows[0]?.offset_ms ?? this.offsetMs);
    return { sandboxNow: this.now('sandbox'), offsetSeconds: Math.floor(this.offsetMs / 1000) };
  }
}
