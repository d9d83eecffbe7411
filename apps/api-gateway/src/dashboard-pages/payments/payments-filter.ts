import type { OrderFilter } from '@payouts/checkout';
import { ORDER_METHODS, ORDER_STATUSES } from '@payouts/domain';
import { ApiError } from '@payouts/http';
import { readHistoryBody, readPaymentsQuery } from '../../checkout/reads/payments-query';
import { QueryParams } from '../../list-queries/query-params';

/** The list's query: its filters, and the page as Get Payments List takes it (`limit`, `offset`). */
export const PAYMENTS_QUERY_FIELDS = [
  'status',
  'method',
  'start_date',
  'end_date',
  'limit',
  'offset',
] as const;
export type PaymentsQueryField = (typeof PAYMENTS_QUERY_FIELDS)[number];

/** What the list was asked for, as typed (for the form and the pagination links); empty fields left out. */
export type PaymentsQuery = Partial<Record<PaymentsQueryField, string>>;

/** Why a field was refused: the API's own message for it. */
export type PaymentsRefusals = Partial<Record<PaymentsQueryField, string>>;

export interface PaymentsRequest {
  query: PaymentsQuery;
  filter: OrderFilter;
  limit: number;
  offset: number;
  /** Empty when every field was accepted. */
  refusals: PaymentsRefusals;
}

/**
 * Reads the list's query with the API's own rules, so a filter means on the page what it means in
 * the API: the dates as Get Payments History reads `start_date` and `end_date` (readHistoryBody:
 * docs/dates.md's forms, both ends inclusive, both needed, start not after end), `limit` and
 * `offset` as Get Payments List reads them (readPaymentsQuery), and `status` and `method` as a
 * list's filters are read (QueryParams.oneOf, over the order's statuses and methods). Each refusal
 * keeps the message the API would answer, under the field it names.
 */
export function readPaymentsRequest(raw: unknown): PaymentsRequest {
  const given = presentFields(raw);
  const query: PaymentsQuery = {};
  for (const [name, value] of Object.entries(given)) {
    if (typeof value === 'string') query[name as PaymentsQueryField] = value;
  }
  const refusals: PaymentsRefusals = {};
  const filter: OrderFilter = {};
  let page = { limit: 0, offset: 0 };

  refusedAs(refusals, 'status', () => {
    const status = new QueryParams(pick(given, 'status'), ['status']).oneOf('status', ORDER_STATUSES);
    if (status) filter.status = status;
  });
  refusedAs(refusals, 'method', () => {
    const method = new QueryParams(pick(given, 'method'), ['method']).oneOf('method', ORDER_METHODS);
    if (method) filter.method = method;
  });
  const dates = pick(given, 'start_date', 'end_date');
  if (Object.keys(dates).length > 0) {
    refusedAs(refusals, 'start_date', () => {
      const { start, end } = readHistoryBody(dates);
      filter.start = start;
      filter.end = end;
    });
  }
  refusedAs(refusals, 'offset', () => {
    page = readPaymentsQuery(pick(given, 'limit', 'offset'));
  });
  return { query, filter, ...page, refusals };
}

/** The known fields that were given a value; an empty field of the form means "any". */
function presentFields(raw: unknown): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (typeof raw !== 'object' || raw === null) return fields;
  for (const name of PAYMENTS_QUERY_FIELDS) {
    const value = (raw as Record<string, unknown>)[name];
    if (value !== undefined && value !== '') fields[name] = value;
  }
  return fields;
}

function pick(fields: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) if (fields[name] !== undefined) picked[name] = fields[name];
  return picked;
}

/** Runs a read; an ApiError it throws is kept as the refusal of the field it names. */
function refusedAs(refusals: PaymentsRefusals, fallback: PaymentsQueryField, read: () => void): void {
  try {
    read();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const field = (PAYMENTS_QUERY_FIELDS as readonly string[]).includes(error.param ?? '')
      ? (error.param as PaymentsQueryField)
      : fallback;
    refusals[field] = error.message;
  }
}
