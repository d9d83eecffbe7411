import { ApiError } from '@payouts/http';
import type { SettlementsCsvFilters, TransactionFilters, TransactionsCsvFilters } from '@payouts/settlements';
import { parseTransactionsQuery } from '../../funds/balance-transactions/balance-transactions.route';
import { parseSettlementsQuery } from '../../funds/settlements/settlements.route';

/**
 * The Balance page's filter of balance transactions: the query parameters of List Balance
 * Transactions (`GET /api/balance/transactions`), read by that route's own parseTransactionsQuery,
 * so a filter means the same thing, and is refused for the same reasons, on the page, in its CSV
 * and in the API.
 */
export const TRANSACTION_FILTER_FIELDS = ['type', 'currency', 'since', 'until', 'settlement_id'] as const;
export type TransactionFilterField = (typeof TRANSACTION_FILTER_FIELDS)[number];

/** The filter as sent: the page puts it back in the form and in its links. */
export type FilterValues = Partial<Record<TransactionFilterField, string>>;

/** A refused filter: the parameter named by the API's refusal, and its message. */
export interface FilterRefusal {
  ok: false;
  field: string | null;
  message: string;
}

export type ParsedFilter = { ok: true; filters: TransactionFilters } | FilterRefusal;

type Query = Record<string, unknown>;

const asQuery = (query: unknown): Query =>
  typeof query === 'object' && query !== null ? (query as Query) : {};

/**
 * The filter fields of a page's query. A field left empty in the form (`currency=`, the type's
 * "Any") is no filter; anything else, a repeated field too, is passed on for the parser to judge.
 */
function filterQuery(query: unknown): Query {
  const all = asQuery(query);
  const picked: Query = {};
  for (const name of TRANSACTION_FILTER_FIELDS) {
    const value = all[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
}

/** The filter's values as text for the form and links (a repeated field shows as empty). */
export function filterValues(query: unknown): FilterValues {
  const picked = filterQuery(query);
  const values: FilterValues = {};
  for (const name of TRANSACTION_FILTER_FIELDS) {
    const value = picked[name];
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

/** Reads the page's filter for one page of the list (`limit` rows from `offset`). */
export function parsePageFilter(query: unknown, limit: number, offset: number): ParsedFilter {
  return parsed(() =>
    parseTransactionsQuery({ ...filterQuery(query), limit: String(limit), offset: String(offset) }),
  );
}

/**
 * Reads the CSV's query: exactly the list's parameters (an unknown one is refused, as the API
 * refuses it); `limit` and `offset` are accepted and ignored, since the CSV has every page.
 */
export function parseTransactionsCsvFilter(
  query: unknown,
): { ok: true; filters: TransactionsCsvFilters } | FilterRefusal {
  const result = parsed(() => parseTransactionsQuery(withoutEmpty(query)));
  if (!result.ok) return result;
  const { limit: _limit, offset: _offset, ...filters } = result.filters;
  return { ok: true, filters };
}

/** The settlements CSV's query: List Settlements' own parameters (status, currency), as there. */
export function parseSettlementsCsvFilter(
  query: unknown,
): { ok: true; filters: SettlementsCsvFilters } | FilterRefusal {
  const result = parsed(() => parseSettlementsQuery(withoutEmpty(query)));
  if (!result.ok) return result;
  const { limit: _limit, offset: _offset, ...filters } = result.filters;
  return { ok: true, filters };
}

function withoutEmpty(query: unknown): Query {
  const sent: Query = {};
  for (const [name, value] of Object.entries(asQuery(query))) if (value !== '') sent[name] = value;
  return sent;
}

function parsed<Filters>(parse: () => Filters): { ok: true; filters: Filters } | FilterRefusal {
  try {
    return { ok: true, filters: parse() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      return { ok: false, field: error.param ?? null, message: error.message };
    }
    throw error;
  }
}
