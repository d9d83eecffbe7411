import { DAY_MS, HOUR_MS } from '../kernel/time';

/**
 * When the next automatic settlement run is due: the next SETTLEMENT_HOUR_UTC strictly after `now`
 * (a run that is due this very instant is the current one, so the next is a day later), and the
 * run's day key, which makes the run's settlement ids the same in every worker.
 */
export function nextSettlementAt(now: Date, hourUtc: number): Date {
  const todayAtHour = Math.floor(now.getTime() / DAY_MS) * DAY_MS + hourUtc * HOUR_MS;
  return new Date(todayAtHour > now.getTime() ? todayAtHour : todayAtHour + DAY_MS);
}

/** The latest run time at or before `now`: the run a worker waking at `now` owes, if not done yet. */
export function currentSettlementRun(now: Date, hourUtc: number): { at: Date; day: string } {
  const todayAtHour = Math.floor(now.getTime() / DAY_MS) * DAY_MS + hourUtc * HOUR_MS;
  const at = new Date(todayAtHour <= now.getTime() ? todayAtHour : todayAtHour - DAY_MS);
  return { at, day: at.toISOString().slice(0, 10) };
}
