import type { FeedKey } from './audit-feed';

/**
 * A keyset-paged read in feed order, a page at a time. The next page is asked for as soon as the
 * current one arrives, so the database reads it while the caller works through this one (on a
 * server they overlap; the embedded database runs them in turn). Memory: two pages at most.
 */
export async function* keysetPages<Row>(
  readPage: (after: FeedKey) => Promise<Row[]>,
  keyOf: (row: Row) => FeedKey,
  after: FeedKey,
  pageSize: number,
): AsyncGenerator<Row[]> {
  const nextKey = (rows: Row[]): FeedKey | null => {
    const last = rows[rows.length - 1];
    return last !== undefined && rows.length >= pageSize ? keyOf(last) : null;
  };
  for await (const rows of pagesAhead(readPage, nextKey, after)) if (rows.length > 0) yield rows;
}

/**
 * Pages of any shape read one ahead, as keysetPages does: `nextKey` says where the page after
 * this one starts, or null when this one is the last.
 */
export async function* pagesAhead<Page>(
  readPage: (after: FeedKey) => Promise<Page>,
  nextKey: (page: Page) => FeedKey | null,
  after: FeedKey,
): AsyncGenerator<Page> {
  let next = quietly(readPage(after));
  for (;;) {
    const page = await next;
    const key = nextKey(page);
    if (key !== null) next = quietly(readPage(key));
    yield page;
    if (key === null) return;
  }
}

/** A read ahead that a caller who stops early never awaits: its failure must not go unhandled. */
function quietly<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
