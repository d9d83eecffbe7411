/** Time arithmetic on values passed in; the domain never reads the clock. */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export function addMs(at: Date, ms: number): Date {
  return new Date(at.getTime() + ms);
}

export function earlier(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

/** Parses an ISO time the domain wrote itself; a malformed one is a bug. */
export function parseIso(iso: string): Date {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw new Error(`Malformed stored time: ${JSON.stringify(iso)}`);
  return at;
}

/** True once `now` has reached `deadlineIso`. */
export function reached(now: Date, deadlineIso: string): boolean {
  return now.getTime() >= parseIso(deadlineIso).getTime();
}
