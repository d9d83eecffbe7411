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
  let next = quietly(readPage(after));
  for (;;) {
    const rows = await next;
    const last = rows[rows.length - 1];
    const more = last !== undefined && rows.length >= pageSize;
    if (more) next = quietly(readPage(keyOf(last)));
    if (rows.length > 0) yield rows;
    if (!more) return;
  }
}

/** A read ahead that a caller who stops early never awaits: its failure must not go unhandled. */
function quietly<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
