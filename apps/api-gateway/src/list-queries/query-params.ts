import { characterCount } from '@payouts/domain';
import { ApiError } from '@payouts/http';

/** Every paginated list of the API (spec 4.2 List Payouts): default page 50, at most 200. */
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;

export interface Page {
  limit: number;
  offset: number;
}

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/;

const refuse = (name: string, message: string) => new ApiError(400, 'invalid_request', message, name);

/**
 * A list's query string, read one named parameter at a time: each refusal is 400 invalid_request
 * naming the parameter, and an unknown parameter is refused rather than ignored (a misspelt filter
 * would otherwise widen the list silently).
 */
export class QueryParams {
  constructor(
    private readonly query: Record<string, unknown>,
    known: readonly string[],
  ) {
    const allowed = new Set([...known, 'limit', 'offset']);
    for (const name of Object.keys(query)) {
      if (!allowed.has(name)) throw refuse(name, `${name} is not a known filter`);
    }
  }

  text(name: string, max: number): string | undefined {
    const value = this.query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length === 0 || characterCount(value) > max) {
      throw refuse(name, `${name} must be 1 to ${max} characters`);
    }
    return value;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.text(name, 64);
    if (value !== undefined && !(values as readonly string[]).includes(value)) {
      throw refuse(name, `${name} must be one of ${values.join(', ')}`);
    }
    return value as T | undefined;
  }

  matching(name: string, pattern: RegExp, described: string): string | undefined {
    const value = this.text(name, 64);
    if (value !== undefined && !pattern.test(value)) throw refuse(name, `${name} must be ${described}`);
    return value;
  }

  time(name: string): Date | undefined {
    const value = this.text(name, 40);
    if (value === undefined) return undefined;
    const at = utcTime(value);
    if (at === undefined) {
      throw refuse(name, `${name} must be an ISO 8601 UTC time such as 2026-01-31T00:00:00Z`);
    }
    return at;
  }

  whole(name: string, fallback: number): number {
    const value = this.text(name, 12);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) throw refuse(name, `${name} must be a whole number`);
    return Number(value);
  }

  /** `limit` above 200 is capped, not refused (spec 4.2). */
  page(): Page {
    const limit = Math.min(this.whole('limit', LIST_DEFAULT_LIMIT), LIST_MAX_LIMIT);
    if (limit < 1) throw refuse('limit', 'limit must be at least 1');
    // Never capped: the spec caps only limit, and an offset past the end is an empty page.
    return { limit, offset: this.whole('offset', 0) };
  }
}

/**
 * The instant a strict ISO 8601 UTC time names, or undefined for one that does not exist (31 April,
 * hour 24). Rows are stamped in whole milliseconds, so digits past the millisecond round the
 * bound up: `since` (created at or after) and `until` (created before) then keep exactly the
 * rows the full-precision bound would.
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
