/**
 * Calendar days in a time zone as UTC instants. The Home chart groups money by the merchant's
 * own days, not UTC's: a payment at 23:30 UTC belongs to the next day in Tokyo and to the same day
 * in New York. A day in a zone is not always 24 hours (a daylight-saving change makes it 23 or 25,
 * and a few zones skip midnight itself), so each day's first instant is found from the zone's
 * rules (the runtime's ICU data) rather than by adding 86 400 000 ms.
 */

export interface ZoneDays {
  /** The local dates, oldest first, as `YYYY-MM-DD`. */
  dates: string[];
  /**
   * `dates.length + 1` instants: `bounds[i]` is the first instant of `dates[i]` in the zone, and
   * the last is the first instant of the day after the last date (the window's exclusive end).
   */
  bounds: Date[];
}

const DAY_MS = 86_400_000;
// No zone's offset reaches 15 hours either way (they run from −12:00 to +14:00), so a local day's
// first instant lies within 15 hours of the same wall-clock midnight read as UTC.
const SEARCH_MS = 15 * 3_600_000;

/** A formatter for the zone, or a RangeError naming the zone when the runtime does not know it. */
export function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  } catch {
    throw new RangeError(
      `unknown time zone: ${JSON.stringify(timeZone)} (an IANA name such as Europe/London)`,
    );
  }
}

/** The local date of an instant in the formatter's zone, as `YYYY-MM-DD`. */
export function localDate(format: Intl.DateTimeFormat, at: number): string {
  let year = '';
  let month = '';
  let day = '';
  for (const part of format.formatToParts(at)) {
    if (part.type === 'year') year = part.value.padStart(4, '0');
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return `${year}-${month}-${day}`;
}

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The first instant (to the millisecond) whose local date is `date` or later. A binary search
 * rather than "midnight minus the offset": the offset at midnight is the thing that changes on
 * the days this has to get right, and where midnight does not exist the day starts at 01:00.
 */
function firstInstantOf(format: Intl.DateTimeFormat, date: string): number {
  const wallMidnight = Date.parse(`${date}T00:00:00.000Z`);
  let before = wallMidnight - SEARCH_MS; // local date earlier than `date`
  let atOrAfter = wallMidnight + SEARCH_MS; // local date `date` or later
  while (atOrAfter - before > 1) {
    const middle = Math.floor((before + atOrAfter) / 2);
    if (localDate(format, middle) >= date) atOrAfter = middle;
    else before = middle;
  }
  return atOrAfter;
}

/** The `count` local days that end with the day `now` falls on in `timeZone`, oldest first. */
export function zoneDays(timeZone: string, now: Date, count: number): ZoneDays {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`count must be a whole number ≥ 1, not ${count}`);
  if (Number.isNaN(now.getTime())) throw new RangeError('now is not a valid date');
  const format = zoneFormatter(timeZone);
  const today = localDate(format, now.getTime());
  const dates = Array.from({ length: count }, (_, i) => addDays(today, i - count + 1));
  const bounds = [...dates, addDays(today, 1)].map((date) => new Date(firstInstantOf(format, date)));
  return { dates, bounds };
}
