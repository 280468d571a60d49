// A detail table's Load More (spec §2): the first page is the newest; each
// further page asks for rows older than the oldest shown (its `start`), drops
// the rows already shown and appends the rest. A new `resetKey` starts over.
import { useLoadMore, type PagedList } from './use-load-more.ts';

export interface Timestamped {
  timestamp: string;
}

/** The oldest timestamp shown, as the server sent it: the next page's `start`. */
export function oldestTimestamp(items: readonly Timestamped[]): string | undefined {
  let oldest: Timestamped | undefined;
  for (const item of items) {
    if (!oldest || Date.parse(item.timestamp) < Date.parse(oldest.timestamp)) oldest = item;
  }
  return oldest?.timestamp;
}

/** `shown`, then the rows of `page` whose key is not shown yet. */
export function appendUnseen<T>(shown: readonly T[], page: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Set(shown.map(keyOf));
  return [...shown, ...page.filter((item) => !seen.has(keyOf(item)))];
}

export function useOlderPages<T extends Timestamped>(
  fetchPage: (start: string | undefined) => Promise<T[]>,
  keyOf: (item: T) => string,
  resetKey: string,
): PagedList<T> {
  return useLoadMore(
    fetchPage,
    { first: undefined, next: oldestTimestamp, append: (shown, page) => appendUnseen(shown, page, keyOf) },
    resetKey,
  );
}
