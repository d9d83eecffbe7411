import { characterCount, PAYOUT_STATUSES, PAYOUT_TEXT_LIMITS } from '@payouts/domain';
import { ApiError } from '@payouts/http';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, ListFilters } from '../payout-queries';

const STATUSES: readonly string[] = PAYOUT_STATUSES;
const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/;
const KNOWN = new Set(['merchant_reference', 'customer_id', 'status', 'since', 'until', 'limit', 'offset']);

/** List Payouts' query (spec 4.2): every filter validated; `limit` above 200 is capped, not refused. */
export function parseListQuery(query: Record<string, unknown>): ListFilters {
  for (const name of Object.keys(query)) {
    if (!KNOWN.has(name)) throw new ApiError(400, 'invalid_request', `${name} is not a known filter`, name);
  }
  const text = (name: string, max: number): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length === 0 || characterCount(value) > max) {
      throw new ApiError(400, 'invalid_request', `${name} must be 1 to ${max} characters`, name);
    }
    return value;
  };
  const time = (name: string): Date | undefined => {
    const value = text(name, 40);
    if (value === undefined) return undefined;
    const at = utcTime(value);
    if (at === undefined) {
      throw new ApiError(
        400,
        'invalid_request',
        `${name} must be an ISO 8601 UTC time such as 2026-01-31T00:00:00Z`,
        name,
      );
    }
    return at;
  };
  const whole = (name: string, fallback: number): number => {
    const value = text(name, 12);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value))
      throw new ApiError(400, 'invalid_request', `${name} must be a whole number`, name);
    return Number(value);
  };
  const status = text('status', 32);
  if (status !== undefined && !STATUSES.includes(status)) {
    throw new ApiError(400, 'invalid_request', `status must be one of ${STATUSES.join(', ')}`, 'status');
  }
  const limit = Math.min(whole('limit', LIST_DEFAULT_LIMIT), LIST_MAX_LIMIT);
  if (limit < 1) throw new ApiError(400, 'invalid_request', 'limit must be at least 1', 'limit');
  return {
    merchantReference: text('merchant_reference', PAYOUT_TEXT_LIMITS.merchant_reference),
    customerId: text('customer_id', PAYOUT_TEXT_LIMITS.customer_id),
    status,
    since: time('since'),
    until: time('until'),
    limit,
    // Never capped: the spec caps only limit, and an offset past the end is an empty page.
    offset: whole('offset', 0),
  };
}

/**
 * The instant a strict ISO 8601 UTC time names, or undefined for one that does not exist (31 April,
 * hour 24). Payouts are stamped in whole milliseconds, so digits past the millisecond round the
 * bound up: `since` (created at or after) and `until` (created before) then keep exactly the
 * payouts the full-precision bound would.
 */
function utcTime(value: string): Date | undefined {
  const match = ISO_UTC.exec(value);
  if (!match) return undefined;
  const written = match.slice(1, 7).map(Number);
  const fraction = (match[7] ?? '').padEnd(6, '0');
  // Parsed as written, to the millisecond; a day or hour that does not exist rolls over and is caught below.
  const at = new Date(`${value.slice(0, 19)}.${fraction.slice(0, 3)}Z`);
  const read = [
    at.getUTCFullYear(),
    at.getUTCMonth() + 1,
    at.getUTCDate(),
    at.getUTCHours(),
    at.getUTCMinutes(),
    at.getUTCSeconds(),
  ];
  const exists = read.every((part, index) => part === written[index]);
  if (!exists) return undefined;
  return Number(fraction.slice(3)) > 0 ? new Date(at.getTime() + 1) : at;
}
