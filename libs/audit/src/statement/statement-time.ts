/**
 * An ISO 8601 time with a zone, as `--from` and `--to` take it: a date alone (`2026-03-01`, that
 * day's midnight UTC), or a date and time to the minute, second or millisecond with `Z` or an
 * offset (`2026-03-01T09:30:00+02:00`). Null for anything else, an impossible date (February 30)
 * or time, and a time without a zone, which would depend on the machine's. Milliseconds at most:
 * event times have no finer precision.
 */
export function parseStatementTime(raw: string): Date | null {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-](\d{2}):(\d{2})))?$/.exec(
      raw,
    );
  if (!match) return null;
  const [year, month, day, hour, minute, second, milli] = [1, 2, 3, 4, 5, 6, 7].map((i) =>
    Number(i === 7 ? (match[i] ?? '0').padEnd(3, '0') : (match[i] ?? '0')),
  ) as [number, number, number, number, number, number, number];
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, milli));
  const fields = [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
  if (fields.join() !== [year, month, day].join() || hour > 23 || minute > 59 || second > 59) return null;
  const [offsetHours, offsetMinutes] = [Number(match[9] ?? 0), Number(match[10] ?? 0)];
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const sign = match[8]?.startsWith('-') ? -1 : 1;
  return new Date(local.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
}
