import { PAYMENTS_DEFAULT_LIMIT, PAYMENTS_MAX_LIMIT } from '@payouts/checkout';
import { apiDateRefusal, invalidRequest, MillisecondRounding, parseApiDate } from '@payouts/http';

const KNOWN = new Set(['limit', 'offset']);

/**
 * `limit` (1-100, default 10; a larger one is capped at 100 and the answer's `limit` says so) and
 * `offset` (default 0), whole numbers only.
 */
export function readPaymentsQuery(query: Record<string, unknown>): { limit: number; offset: number } {
  for (const name of Object.keys(query)) {
    if (!KNOWN.has(name)) throw invalidRequest(`${name} is not a known parameter`, name);
  }
  const limit = wholeNumber(query.limit, 'limit', PAYMENTS_DEFAULT_LIMIT);
  if (limit < 1) throw invalidRequest('limit must be at least 1', 'limit');
  return { limit: Math.min(limit, PAYMENTS_MAX_LIMIT), offset: wholeNumber(query.offset, 'offset', 0) };
}

function wholeNumber(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) {
    throw invalidRequest(`${name} must be a whole number`, name);
  }
  return Number(value);
}

/** The order id of `payment_id`: a positive whole number, or nothing can be found by it. */
export function readPaymentId(query: Record<string, unknown>): number | null {
  for (const name of Object.keys(query)) {
    if (name !== 'payment_id') throw invalidRequest(`${name} is not a known parameter`, name);
  }
  const value = query.payment_id;
  if (value === undefined || value === '') throw invalidRequest('payment_id is required', 'payment_id');
  if (typeof value !== 'string') throw invalidRequest('payment_id must be given once', 'payment_id');
  if (!/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * start_date and end_date, both inclusive, start not after end; their forms are docs/dates.md's.
 * A date alone is that day at 00:00 UTC, for end_date too (as it always was).
 */
export function readHistoryBody(body: unknown): { start: Date; end: Date } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('the body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (name !== 'start_date' && name !== 'end_date')
      throw invalidRequest(`${name} is not a known field`, name);
  }
  // Created at or after start and at or before end: which whole millisecond each bound stands for.
  const start = dateField(fields.start_date, 'start_date', 'up');
  const end = dateField(fields.end_date, 'end_date', 'down');
  if (start.getTime() > end.getTime())
    throw invalidRequest('start_date must not be after end_date', 'start_date');
  return { start, end };
}

function dateField(value: unknown, name: string, rounding: MillisecondRounding): Date {
  if (value === undefined || value === null) throw invalidRequest(`${name} is required`, name);
  const at = typeof value === 'string' ? parseApiDate(value, rounding) : undefined;
  if (at === undefined) throw apiDateRefusal(name);
  return at;
}
