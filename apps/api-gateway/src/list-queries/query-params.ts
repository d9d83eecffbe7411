import { characterCount } from '@payouts/domain';
import { apiDateRefusal, ApiError, parseApiDate } from '@payouts/http';

/** Every paginated list of the API, as List Payouts (docs/design.md#limits): default page 50, at most 200. */
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;

export interface Page {
  limit: number;
  offset: number;
}

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

  /**
   * A time bound in any of docs/dates.md's forms. Both list bounds, "at or after" (since) and
   * "before" (until), round a time finer than a millisecond up: rows are whole milliseconds.
   */
  time(name: string): Date | undefined {
    const value = this.text(name, 40);
    if (value === undefined) return undefined;
    const at = parseApiDate(value, 'up');
    if (at === undefined) throw apiDateRefusal(name);
    return at;
  }

  whole(name: string, fallback: number): number {
    const value = this.text(name, 12);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) throw refuse(name, `${name} must be a whole number`);
    return Number(value);
  }

  /** `limit` above 200 is capped, not refused (docs/design.md#limits). */
  page(): Page {
    const limit = Math.min(this.whole('limit', LIST_DEFAULT_LIMIT), LIST_MAX_LIMIT);
    if (limit < 1) throw refuse('limit', 'limit must be at least 1');
    // Never capped: only limit is (docs/design.md#limits), and an offset past the end is an empty page.
    return { limit, offset: this.whole('offset', 0) };
  }
}
