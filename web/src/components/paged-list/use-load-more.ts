// The machinery behind every Load More (spec §2, §4): the first page, then a
// page at a time after the rows shown. A new `resetKey` starts over, and so
// does `reload` (e.g. once devices were imported); answers
// to a superseded request are ignored, cancelled ones too (§7), and a failed
// load is logged (§8).
import { useCallback, useEffect, useRef, useState } from 'react';

import { isCancelled } from '../../lib/api.ts';
import { PAGE_SIZE } from '../../lib/constants.ts';

export type ListStatus = 'loading' | 'ready' | 'error';

export interface PagedList<T> {
  items: T[];
  status: ListStatus;
  loadingMore: boolean;
  /** The last page was full, so there may be more. */
  hasMore: boolean;
  loadMore: () => void;
  /** Starts over from the first page. */
  reload: () => void;
}

export interface Pager<T, A> {
  /** The first page's request. */
  first: A;
  /** The next page's request, after the rows shown. */
  next: (shown: readonly T[]) => A;
  /** The rows shown once a page arrives (the first page arrives after none). */
  append: (shown: readonly T[], page: readonly T[]) => T[];
}

export function useLoadMore<T, A>(
  fetchPage: (request: A) => Promise<T[]>,
  pager: Pager<T, A>,
  resetKey: string,
): PagedList<T> {
  const [items, setItems] = useState<T[]>([]);
  const [status, setStatus] = useState<ListStatus>('loading');
  const [loadingMore, setLoadingMore] = useState(false);
  const [hasMore, setHasMore] = useState(false);
  const generation = useRef(0);
  // The latest fetcher and pager, so that callers need not memoize them.
  const latest = useRef({ fetchPage, pager });
  useEffect(() => {
    latest.current = { fetchPage, pager };
  }, [fetchPage, pager]);

  const run = useCallback(async (request: A, gen: number) => {
    try {
      const page = await latest.current.fetchPage(request);
      if (gen !== generation.current) return;
      setItems((shown) => latest.current.pager.append(shown, page));
      setHasMore(page.length >= PAGE_SIZE);
      setStatus('ready');
    } catch (error) {
      if (gen !== generation.current || isCancelled(error)) return;
      console.error('page load failed', error);
      setStatus((current) => (current === 'loading' ? 'error' : current));
    }
  }, []);

  // A new key or a reload starts over (adjusting state while rendering, as React advises).
  const [reloads, setReloads] = useState(0);
  const key = `${String(reloads)}:${resetKey}`;
  const [shownFor, setShownFor] = useState(key);
  if (shownFor !== key) {
    setShownFor(key);
    setItems([]);
    setStatus('loading');
    setHasMore(false);
    setLoadingMore(false);
  }

  useEffect(() => {
    generation.current += 1;
    void run(latest.current.pager.first, generation.current);
  }, [key, run]);

  const loadMore = useCallback(() => {
    const gen = generation.current;
    setLoadingMore(true);
    void run(latest.current.pager.next(items), gen).finally(() => {
      if (gen === generation.current) setLoadingMore(false);
    });
  }, [items, run]);

  const reload = useCallback(() => {
    setReloads((count) => count + 1);
  }, []);

  return { items, status, loadingMore, hasMore, loadMore, reload };
}
