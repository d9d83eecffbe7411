import { ApiError } from './api-error';

/**
 * The one reader of every date the API takes (docs/dates.md has the table): Get Payments History's
 * start_date and end_date, and the since and until of the lists. Pure: no clock, no Nest.
 *
 * Accepted: `YYYY-MM-DD` (that day at 00:00 UTC), or `YYYY-MM-DDTHH:MM`, `…:SS` or `…:SS.f` (1 to
 * 9 fractional digits) followed by `Z`, `±HH:MM` or nothing (UTC). Anything else is refused, and
 * so is every value JS Date would read loosely: a day the month does not have (30 February rolls
 * into March there), hour 24, minute or second 60, an offset of 24 hours, and an instant, once its
 * offset is applied, outside 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999Z, which the database
 * cannot take (year 0 or 10000 was a 500).
 */
const FORM =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))?)?$/;

/** The forms as an OpenAPI `pattern`; that the date is real and in range is not a pattern's to say. */
export const API_DATE_PATTERN = FORM.source;

/** The forms in a sentence, for the OpenAPI description of every date parameter. */
export const API_DATE_FORMS =
  'YYYY-MM-DD (that day at 00:00 UTC), or YYYY-MM-DDTHH:MM, with optional :SS and up to 9 fractional digits, then Z, ±HH:MM or nothing (UTC); a real instant from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.';

const FIRST_MS = utcMs(1, 1, 1, 0, 0, 0, 0);
const LAST_MS = utcMs(9999, 12, 31, 23, 59, 59, 999);

/**
 * Which whole millisecond stands for an instant written finer than one. Rows are stamped in whole
 * milliseconds, so a bound rounded the right way keeps exactly the rows the written bound would:
 * up for "at or after" and "before", down for "at or before".
 */
export type MillisecondRounding = 'up' | 'down';

/** The instant `text` names, or undefined when it is not one of the accepted forms of a real instant. */
export function parseApiDate(text: string, rounding: MillisecondRounding): Date | undefined {
  const match = FORM.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(match[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = (match[7] ?? '').padEnd(9, '0');
  const [offsetHours, offsetMinutes] = [Number(match[9] ?? 0), Number(match[10] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;

  const local = utcMs(year, month, day, hour, minute, second, Number(fraction.slice(0, 3)));
  const sign = match[8] === '-' ? -1 : 1;
  const ms = local - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  const finer = Number(fraction.slice(3)) > 0;
  // The written instant is ms plus a part of a millisecond when `finer`: compared exactly.
  if (ms < FIRST_MS || ms > LAST_MS || (ms === LAST_MS && finer)) return undefined;
  return new Date(finer && rounding === 'up' ? ms + 1 : ms);
}

/** 400 invalid_request naming the field, the same wherever a date is refused. */
export function apiDateRefusal(name: string): ApiError {
  return new ApiError(
    400,
    'invalid_request',
    `${name} must be a real date from year 0001 to 9999, as 2026-01-31 (00:00 UTC) or 2026-01-31T09:30:00Z (Z or an offset such as +01:00; seconds and up to 9 fractional digits optional)`,
    name,
  );
}

/** Milliseconds since 1970 of a valid UTC date and time. */
function utcMs(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  milli: number,
): number {
  const at = new Date(0);
  // setUTCFullYear takes a year under 100 as written; Date.UTC would read 0099 as 1999.
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, milli);
  return at.getTime();
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
