// One gateway list screen's data (spec §4, Lists): its total, its pages and
// the chosen start day.
import { useCallback, useState } from 'react';

import { usePagedList } from '../../../components/paged-list/use-paged-list.ts';
import type { Gateway, PageParams } from '../../../lib/types.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useGatewayCountQuery, useLazyGatewayListQuery, type GatewayListKind } from '../api/gateways-api.ts';

export function useGatewayList(kind: GatewayListKind) {
  const [startDay, setStartDay] = useState<string | null>(null);
  const { data: total, error } = useGatewayCountQuery(kind);
  useLoggedError(error, `${kind} gateway count`);
  const [fetchList] = useLazyGatewayListQuery();
  const fetchPage = useCallback((page: PageParams) => fetchList({ kind, page }).unwrap(), [fetchList, kind]);
  const list = usePagedList<Gateway>(fetchPage, startDay);
  return { list, total, startDay, setStartDay };
}
