/** The one place the application reads the time; the domain gets it as a value. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
