// Paged device lists (spec §4, Lists): the first page is the newest (or the
// newest up to the chosen day); Load More asks for records registered before
// the oldest one shown, drops duplicates, sorts the page by lastseen (newest
// first) and appends it. Changing the start day reloads from the first page.
import { PAGE_SIZE } from '../../lib/constants.ts';
import { idOf } from '../../lib/format.ts';
import type { PageParams, RecordId } from '../../lib/types.ts';
import { startOfNextDay } from '../start-date-picker.tsx';
import { useLoadMore, type PagedList } from './use-load-more.ts';

export interface Pageable {
  _id: RecordId;
  registeredAt: string;
  lastseen: string | null;
}

const time = (value: string | null) => (value ? Date.parse(value) : Number.NEGATIVE_INFINITY);

/** Newest lastseen first; never-seen devices last. */
export function byLastSeen<T extends Pageable>(a: T, b: T): number {
  return time(b.lastseen) - time(a.lastseen);
}

/** The next page's parameters: before the smallest registeredAt shown. */
export function nextPageParams(items: readonly Pageable[]): PageParams {
  const oldest = items.reduce<string | null>(
    (min, item) => (min === null || Date.parse(item.registeredAt) < Date.parse(min) ? item.registeredAt : min),
    null,
  );
  return oldest ? { max: PAGE_SIZE, start: oldest, reverse: true } : { max: PAGE_SIZE };
}

export function appendPage<T extends Pageable>(shown: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(shown.map((item) => idOf(item._id)));
  const fresh = page.filter((item) => !seen.has(idOf(item._id))).sort(byLastSeen);
  return [...shown, ...fresh];
}

export function usePagedList<T extends Pageable>(
  fetchPage: (params: PageParams) => Promise<T[]>,
  startDay: string | null,
): PagedList<T> {
  const first: PageParams = startDay
    ? { max: PAGE_SIZE, start: startOfNextDay(startDay), reverse: true }
    : { max: PAGE_SIZE };
  return useLoadMore(fetchPage, { first, next: nextPageParams, append: appendPage }, startDay ?? '');
}
