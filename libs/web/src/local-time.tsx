/**
 * Times on the pages: in the account's time zone (its setting, UTC until set), with the zone's
 * abbreviation, and the UTC time in the element's title and `datetime` for anyone who needs it.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** `7 Dec 2026, 14:03:09 GMT+1`: the instant as the account's staff read it. */
export function formatLocalTime(at: Date | string, timeZone: string): string {
  return formatterFor(timeZone).format(typeof at === 'string' ? new Date(at) : at);
}

/** `2026-12-07 13:03:09 UTC`: the same instant in UTC, exact to the second. */
export function formatUtcTime(at: Date | string): string {
  const iso = (typeof at === 'string' ? new Date(at) : at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export interface LocalTimeProps {
  at: Date | string;
  timeZone: string;
}

/** A `<time>` in the account's zone; hovering (or a screen reader's title) gives UTC. */
export function LocalTime({ at, timeZone }: LocalTimeProps) {
  const instant = typeof at === 'string' ? new Date(at) : at;
  return (
    <time dateTime={instant.toISOString()} title={formatUtcTime(instant)}>
      {formatLocalTime(instant, timeZone)}
    </time>
  );
}
