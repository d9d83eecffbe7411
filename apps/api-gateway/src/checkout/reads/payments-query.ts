import { PAYMENTS_DEFAULT_LIMIT, PAYMENTS_MAX_LIMIT } from '@payouts/checkout';
import { invalidRequest } from '@payouts/http';

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

/** start_date and end_date: ISO 8601 date-times (or dates), start not after end. */
export function readHistoryBody(body: unknown): { start: Date; end: Date } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('the body must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (name !== 'start_date' && name !== 'end_date')
      throw invalidRequest(`${name} is not a known field`, name);
  }
  const start = isoDate(fields.start_date, 'start_date');
  const end = isoDate(fields.end_date, 'end_date');
  if (start.getTime() > end.getTime())
    throw invalidRequest('start_date must not be after end_date', 'start_date');
  return { start, end };
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function isoDate(value: unknown, name: string): Date {
  if (value === undefined || value === null) throw invalidRequest(`${name} is required`, name);
  if (typeof value !== 'string' || !ISO_8601.test(value) || Number.isNaN(Date.parse(value))) {
    throw invalidRequest(`${name} must be an ISO 8601 date-time, such as 2026-01-31T00:00:00Z`, name);
  }
  // A date alone, or a time without a zone, is read as UTC: the service's clock is UTC.
  const zoned = /T/.test(value)
    ? /(Z|[+-]\d{2}:\d{2})$/.test(value)
      ? value
      : `${value}Z`
    : `${value}T00:00:00Z`;
  return new Date(zoned);
}
