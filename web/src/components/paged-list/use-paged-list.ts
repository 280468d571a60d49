// Paged device lists (spec §4, Lists): the first page is the newest (or the
// newest up to the chosen day); Load More asks for records registered before
// the oldest one shown, drops duplicates, sorts the page by lastseen (newest
// first) and appends it. Changing the start day reloads from the first page.
import { useCallback, useEffect, useRef, useState } from 'react';

import { isCancelled } from '../../lib/api.ts';
import { PAGE_SIZE } from '../../lib/constants.ts';
import { idOf } from '../../lib/format.ts';
import type { PageParams, RecordId } from '../../lib/types.ts';
import { startOfNextDay } from '../start-date-picker.tsx';

export interface Pageable {
  _id: RecordId;
  registeredAt: string;
  lastseen: string | null;
}

export type ListStatus = 'loading' | 'ready' | 'error';

export interface PagedList<T> {
  items: T[];
  status: ListStatus;
  loadingMore: boolean;
  /** The last page was full, so there may be more. */
  hasMore: boolean;
  loadMore: () => void;
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
  const [items, setItems] = useState<T[]>([]);
  const [status, setStatus] = useState<ListStatus>('loading');
  const [loadingMore, setLoadingMore] = useState(false);
  const [hasMore, setHasMore] = useState(false);
  // Answers to a superseded request (an older start day) are ignored.
  const generation = useRef(0);
  // The latest fetcher, so that callers need not memoize it.
  const fetcher = useRef(fetchPage);
  useEffect(() => {
    fetcher.current = fetchPage;
  }, [fetchPage]);

  const run = useCallback(
    async (params: PageParams, merge: (page: T[]) => void, gen: number) => {
      try {
        const page = await fetcher.current(params);
        if (gen !== generation.current) return;
        merge(page);
        setHasMore(page.length >= params.max);
        setStatus('ready');
      } catch (error) {
        if (gen !== generation.current || isCancelled(error)) return;
        console.error('list load failed', error);
        setStatus((current) => (current === 'loading' ? 'error' : current));
      }
    },
    [],
  );

  // A new start day starts over (adjusting state while rendering, as React advises).
  const [shownFor, setShownFor] = useState(startDay);
  if (shownFor !== startDay) {
    setShownFor(startDay);
    setItems([]);
    setStatus('loading');
    setHasMore(false);
  }

  useEffect(() => {
    generation.current += 1;
    const gen = generation.current;
    const params: PageParams = startDay
      ? { max: PAGE_SIZE, start: startOfNextDay(startDay), reverse: true }
      : { max: PAGE_SIZE };
    void run(params, (page) => { setItems([...page].sort(byLastSeen)); }, gen);
  }, [startDay, run]);

  const loadMore = useCallback(() => {
    const gen = generation.current;
    setLoadingMore(true);
    void run(nextPageParams(items), (page) => { setItems((shown) => appendPage(shown, page)); }, gen).finally(() => {
      if (gen === generation.current) setLoadingMore(false);
    });
  }, [items, run]);

  return { items, status, loadingMore, hasMore, loadMore };
}
