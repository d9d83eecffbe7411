import type { Environment } from '@payouts/domain';

/**
 * The one place the application reads the time; the domain gets it as a value. The sandbox may
 * run ahead of real time (the operator's sandbox clock); production never does.
 */
export interface Clock {
  now(environment?: Environment): Date;
}

export const systemClock: Clock = { now: () => new Date() };
