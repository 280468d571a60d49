// The audit screen's view, kept in the URL (api/audit-view.ts). A change of
// the filter goes back to the first page; a page change keeps the filter.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { readView, writeView, type AuditFilter } from '../api/audit-view.ts';

export function useAuditView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readView(params), [params]);

  /** Applies `patch` to the filter, from the first page. */
  const filter = useCallback(
    (patch: Partial<AuditFilter>) => {
      setParams((current) => writeView({ ...readView(current), ...patch, page: 1 }, current));
    },
    [setParams],
  );
  const goTo = useCallback(
    (page: number, max: number) => {
      setParams((current) => writeView({ ...readView(current), page, max }, current));
    },
    [setParams],
  );
  return { view, filter, goTo };
}
