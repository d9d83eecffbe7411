/** One page of a list the service pages by offset: `{total, limit, offset, data}`. */
export interface OffsetPage<T> {
  total: number;
  limit: number;
  offset: number;
  data: T[];
}

/**
 * Every item of an offset-paged list, page after page from `startOffset`, until a page comes back
 * short or empty or the list's total is reached. Lists are newest first: an item created while
 * this runs can push an older one onto the next page, where it is seen again; de-duplicate by id
 * when that matters.
 */
export async function* offsetPages<T>(
  fetchPage: (offset: number) => Promise<OffsetPage<T>>,
  startOffset = 0,
): AsyncGenerator<T, void, undefined> {
  let offset = startOffset;
  for (;;) {
    const page = await fetchPage(offset);
    yield* page.data;
    offset = page.offset + page.data.length;
    if (page.data.length === 0 || page.data.length < page.limit || offset >= page.total) return;
  }
}
