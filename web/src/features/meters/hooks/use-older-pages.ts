// A detail table's Load More (spec §2): the first page is the newest; each
// further page asks for rows older than the oldest shown, drops the rows
// already shown and appends the rest. A new `resetKey` starts over.
import { useCallback, useEffect, useRef, useState } from 'react';

import { isCancelled } from '../../../lib/api.ts';
import { PAGE_SIZE } from '../../../lib/constants.ts';

export interface Timestamped {
  timestamp: string;
}

export interface OlderPages<T> {
  items: T[];
  status: 'loading' | 'ready' | 'error';
  loadingMore: boolean;
  hasMore: boolean;
  loadMore: () => void;
}

/** The oldest timestamp shown: the next page's `start`. */
export function oldestTimestamp(items: readonly Timestamped[]): string | undefined {
  let oldest: Timestamped | undefined;
  for (const item of items) {
    if (!oldest || Date.parse(item.timestamp) < Date.parse(oldest.timestamp)) oldest = item;
  }
  return oldest?.timestamp;
}

export function useOlderPages<T extends Timestamped>(
  fetchPage: (start: string | undefined) => Promise<T[]>,
  keyOf: (item: T) => string,
  resetKey: string,
): OlderPages<T> {
  const [items, setItems] = useState<T[]>([]);
  const [status, setStatus] = useState<OlderPages<T>['status']>('loading');
  const [loadingMore, setLoadingMore] = useState(false);
  const [hasMore, setHasMore] = useState(false);
  const generation = useRef(0);
  const fetcher = useRef(fetchPage);
  const key = useRef(keyOf);
  useEffect(() => {
    fetcher.current = fetchPage;
    key.current = keyOf;
  }, [fetchPage, keyOf]);

  const run = useCallback(async (start: string | undefined, gen: number) => {
    try {
      const page = await fetcher.current(start);
      if (gen !== generation.current) return;
      setItems((shown) => {
        if (!start) return page;
        const seen = new Set(shown.map(key.current));
        return [...shown, ...page.filter((item) => !seen.has(key.current(item)))];
      });
      setHasMore(page.length >= PAGE_SIZE);
      setStatus('ready');
    } catch (error) {
      if (gen !== generation.current || isCancelled(error)) return;
      console.error('table load failed', error);
      setStatus((current) => (current === 'loading' ? 'error' : current));
    }
  }, []);

  const [shownFor, setShownFor] = useState(resetKey);
  if (shownFor !== resetKey) {
    setShownFor(resetKey);
    setItems([]);
    setStatus('loading');
    setHasMore(false);
    setLoadingMore(false);
  }

  useEffect(() => {
    generation.current += 1;
    void run(undefined, generation.current);
  }, [resetKey, run]);

  const loadMore = useCallback(() => {
    const gen = generation.current;
    setLoadingMore(true);
    void run(oldestTimestamp(items), gen).finally(() => {
      if (gen === generation.current) setLoadingMore(false);
    });
  }, [items, run]);

  return { items, status, loadingMore, hasMore, loadMore };
}
