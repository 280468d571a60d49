// A gateway's activity, page by page (spec §2): Load More asks for rows older
// than the oldest shown, drops the ones already shown and appends the rest.
// A list is for one gateway, optionally narrowed to one meter; mount a new
// list (a new React key) to change either.
import { useCallback, useMemo, useState } from 'react';

import { isCancelled } from '../../../lib/api.ts';
import { PAGE_SIZE } from '../../../lib/constants.ts';
import { idOf } from '../../../lib/format.ts';
import type { GatewayActivity } from '../../../lib/types.ts';
import {
  useGatewayActivityPageQuery,
  useLazyGatewayActivityPageQuery,
  type ActivityPage,
} from '../api/gateway-telemetry-api.ts';
import { useLoggedError } from './use-logged-error.ts';

/** The oldest timestamp among the rows, as the server sent it. */
export function oldestTimestamp(rows: readonly GatewayActivity[]): string | undefined {
  let oldest: GatewayActivity | undefined;
  for (const row of rows) {
    if (!oldest || Date.parse(row.timestamp) < Date.parse(oldest.timestamp)) oldest = row;
  }
  return oldest?.timestamp;
}

export function appendActivities(shown: readonly GatewayActivity[], page: readonly GatewayActivity[]): GatewayActivity[] {
  const seen = new Set(shown.flatMap((row) => (row._id ? [idOf(row._id)] : [])));
  return [...shown, ...page.filter((row) => !row._id || !seen.has(idOf(row._id)))];
}

interface More {
  rows: GatewayActivity[];
  lastPageFull: boolean;
}

export function useActivityPages(gatewayId: string, meterId: string | null) {
  const pageArgs = useCallback(
    (start: string | undefined): ActivityPage => ({
      gatewayId,
      max: PAGE_SIZE,
      ...(start ? { start } : {}),
      ...(meterId ? { meterId } : {}),
    }),
    [gatewayId, meterId],
  );
  const first = useGatewayActivityPageQuery(pageArgs(undefined));
  useLoggedError(first.error, 'gateway activity');
  const [fetchPage] = useLazyGatewayActivityPageQuery();
  const [more, setMore] = useState<More | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  const rows = useMemo(() => appendActivities(first.data ?? [], more?.rows ?? []), [first.data, more]);
  const hasMore = more ? more.lastPageFull : (first.data?.length ?? 0) >= PAGE_SIZE;

  const loadMore = useCallback(async () => {
    setLoadingMore(true);
    try {
      const page = await fetchPage(pageArgs(oldestTimestamp(rows))).unwrap();
      setMore((shown) => ({ rows: [...(shown?.rows ?? []), ...page], lastPageFull: page.length >= PAGE_SIZE }));
    } catch (error) {
      if (!isCancelled(error)) console.error('gateway activity failed to load', error);
    }
    setLoadingMore(false);
  }, [fetchPage, pageArgs, rows]);

  return { rows, loading: first.isLoading || loadingMore, hasMore, loadMore: () => void loadMore() };
}
