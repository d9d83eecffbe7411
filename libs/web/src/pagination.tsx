export interface PaginationProps {
  /** Rows matching the filter, on every page. */
  total: number;
  /** Index of this page's first row among them (0-based). */
  offset: number;
  /** Rows on this page. */
  shown: number;
  limit: number;
  /** The address of the page starting at `offset`, keeping the current filter. */
  hrefFor: (offset: number) => string;
  /** What the rows are, e.g. "payouts". */
  noun: string;
}

/** "Showing 51–100 of 230 payouts" with previous and next links: every list has its total. */
export function Pagination({ total, offset, shown, limit, hrefFor, noun }: PaginationProps) {
  const first = shown === 0 ? 0 : offset + 1;
  const last = offset + shown;
  const previous = offset > 0 ? Math.max(0, offset - limit) : null;
  const next = last < total ? last : null;
  return (
    <nav class="pagination" aria-label={`Pages of ${noun}`}>
      <p>
        Showing {first}–{last} of {total} {noun}
      </p>
      <ul>
        <li>{previous === null ? null : <a href={hrefFor(previous)}>Previous page</a>}</li>
        <li>{next === null ? null : <a href={hrefFor(next)}>Next page</a>}</li>
      </ul>
    </nav>
  );
}

/**
 * The page's address with `changes` applied to its query: filters kept, empty values dropped.
 * Pagination and filter links use it so a page's state is all in its URL.
 */
export function hrefWith(
  path: string,
  query: Record<string, string | undefined>,
  changes: Record<string, string | number | undefined>,
): string {
  const params = new URLSearchParams();
  const merged: Record<string, string | number | undefined> = { ...query, ...changes };
  for (const [name, value] of Object.entries(merged)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** A non-negative integer query value (`offset`), or the fallback when absent or malformed. */
export function queryInteger(value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return fallback;
  return Math.min(Number(value), max);
}
