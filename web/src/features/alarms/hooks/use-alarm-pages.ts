// Keyset paging for the alarm grid: page n is read after the cursor the
// server gave with page n - 1. A new filter, order or page size starts again
// at the first page. The grid only steps one page at a time, so every page
// it asks for has a known cursor.
import { useState } from 'react';

import { useAlarmsQuery } from '../api/alarms-api.ts';

interface Position {
  key: string;
  page: number;
  /** `cursors[n]` reads page n; the first page has none. */
  cursors: (string | undefined)[];
}

export function useAlarmPages(params: Record<string, string>, pageSize: number) {
  const key = JSON.stringify([params, pageSize]);
  const [position, setPosition] = useState<Position>({ key, page: 0, cursors: [undefined] });
  const current = position.key === key ? position : { key, page: 0, cursors: [undefined] };
  if (current !== position) setPosition(current);

  const query = useAlarmsQuery({ params, max: pageSize, after: current.cursors[current.page] });
  const loaded = query.currentData;
  const next = loaded?.next ?? null;

  const goTo = (page: number) => {
    setPosition((p) => {
      if (p.key !== key || page < 0) return p;
      if (page < p.cursors.length) return { ...p, page };
      if (page === p.page + 1 && next) return { ...p, page, cursors: [...p.cursors.slice(0, page), next] };
      return p;
    });
  };

  return {
    page: current.page,
    rows: loaded?.items ?? [],
    /** Known only on the last page; -1 (unknown) until then. */
    rowCount: loaded && next === null ? current.page * pageSize + loaded.items.length : -1,
    /** While a page loads, the grid must not conclude it is the last. */
    hasNextPage: loaded ? next !== null : true,
    /**
     * Only while the page has no rows yet. An alarm change refreshes the list
     * in the background (the stream's hint); the rows stay, with no overlay:
     * on a busy network that refresh never stops, and the grid would always
     * say it is loading (and put its unnamed progress bar in the grid).
     */
    loading: query.isFetching && !loaded,
    error: query.error,
    goTo,
  };
}
