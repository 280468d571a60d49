// One meter list screen's data: its total, its pages (spec §4, Lists) and the
// chosen start day.
import { useCallback, useEffect, useState } from 'react';

import { usePagedList } from '../../../components/paged-list/use-paged-list.ts';
import { isCancelled } from '../../../lib/api.ts';
import type { PageParams } from '../../../lib/types.ts';
import { useLazyMeterPageQuery, useMeterCountQuery } from '../api/meter-lists-api.ts';
import type { MeterListKind } from '../api/meter-tags.ts';

export function useMeterList(kind: MeterListKind) {
  const [startDay, setStartDay] = useState<string | null>(null);
  const count = useMeterCountQuery(kind);
  const [fetchMeters] = useLazyMeterPageQuery();
  const fetchPage = useCallback((params: PageParams) => fetchMeters({ kind, ...params }).unwrap(), [fetchMeters, kind]);
  const list = usePagedList(fetchPage, startDay);

  // A count that fails to load is only logged (spec §8).
  useEffect(() => {
    if (count.error && !isCancelled(count.error)) console.error('meter count failed', count.error);
  }, [count.error]);

  return { list, total: count.data, startDay, setStartDay };
}
