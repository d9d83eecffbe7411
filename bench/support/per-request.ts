/**
 * What one request cost between two readings of a counter (CPU ms, WAL bytes): undefined when a
 * reading is missing or the run served no request, so a figure is never Infinity or NaN.
 */
export function perRequest(
  before: number | undefined,
  after: number | undefined,
  requests: number,
): number | undefined {
  if (before === undefined || after === undefined || requests <= 0) return undefined;
  return (after - before) / requests;
}
