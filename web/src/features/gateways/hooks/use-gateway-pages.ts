// Pages of a gateway list for `usePagedList` (spec §4, Lists).
import { useCallback } from 'react';

import { usePagedList } from '../../../components/paged-list/use-paged-list.ts';
import type { Gateway, PageParams } from '../../../lib/types.ts';
import { useLazyGatewayListQuery, type GatewayListKind } from '../api/gateways-api.ts';

export function useGatewayPages(kind: GatewayListKind, startDay: string | null) {
  const [fetchList] = useLazyGatewayListQuery();
  const fetchPage = useCallback((page: PageParams) => fetchList({ kind, page }).unwrap(), [fetchList, kind]);
  return usePagedList<Gateway>(fetchPage, startDay);
}
