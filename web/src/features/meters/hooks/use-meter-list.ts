// One meter list screen's data: its total, its pages (spec §4, Lists) and the
// chosen start day.
import { useCallback, useState } from 'react';

import { usePagedList } from '../../../components/paged-list/use-paged-list.ts';
import type { PageParams } from '../../../lib/types.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useLazyMeterPageQuery, useMeterCountQuery } from '../api/meter-lists-api.ts';
import type { MeterListKind } from '../api/meter-tags.ts';

export function useMeterList(kind: MeterListKind) {
  const [startDay, setStartDay] = useState<string | null>(null);
  const count = useMeterCountQuery(kind);
  const [fetchMeters] = useLazyMeterPageQuery();
  const fetchPage = useCallback((params: PageParams) => fetchMeters({ kind, ...params }).unwrap(), [fetchMeters, kind]);
  const list = usePagedList(fetchPage, startDay);

  useLoggedError(count.error, 'meter count');

  return { list, total: count.data, startDay, setStartDay };
}
