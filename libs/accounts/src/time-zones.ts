/**
 * Time zones an account may choose: the IANA names this runtime's ICU data knows, plus UTC (which
 * `Intl.supportedValuesOf` lists only as an alias on some runtimes). The dashboard offers these in
 * its setting, and the repository refuses anything else, so every stored zone can be formatted.
 */
export const TIME_ZONES: readonly string[] = [
  'UTC',
  ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC'),
];

const KNOWN = new Set(TIME_ZONES);

export function isKnownTimeZone(value: unknown): value is string {
  return typeof value === 'string' && KNOWN.has(value);
}
