import { characterCount, PAYOUT_STATUSES, PAYOUT_TEXT_LIMITS } from '@payouts/domain';
import { ApiError } from '@payouts/platform';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, ListFilters } from './payout-queries';

const STATUSES: readonly string[] = PAYOUT_STATUSES;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
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
    const at = new Date(value);
    if (!ISO_UTC.test(value) || Number.isNaN(at.getTime())) {
      throw new ApiError(
        400,
        'invalid_request',
        `${name} must be an ISO 8601 UTC time such as 2026-01-31T00:00:00Z`,
        name,
      );
    }
    return at;
  };
  const whole = (name: string, fallback: number, max: number): number => {
    const value = text(name, 12);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value))
      throw new ApiError(400, 'invalid_request', `${name} must be a whole number`, name);
    return Math.min(Number(value), max);
  };
  const status = text('status', 32);
  if (status !== undefined && !STATUSES.includes(status)) {
    throw new ApiError(400, 'invalid_request', `status must be one of ${STATUSES.join(', ')}`, 'status');
  }
  const limit = whole('limit', LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT);
  if (limit < 1) throw new ApiError(400, 'invalid_request', 'limit must be at least 1', 'limit');
  return {
    merchantReference: text('merchant_reference', PAYOUT_TEXT_LIMITS.merchant_reference),
    customerId: text('customer_id', PAYOUT_TEXT_LIMITS.customer_id),
    status,
    since: time('since'),
    until: time('until'),
    limit,
    offset: whole('offset', 0, 1_000_000),
  };
}
