// The Alarms screen's view, kept in the URL (api/alarm-view.ts): the filter,
// the order and the alarm open in the side panel.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { readView, writeView, type AlarmView } from '../api/alarm-view.ts';

const OPEN = 'alarm';

export function useAlarmView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readView(params), [params]);
  const open = params.get(OPEN);

  const setView = useCallback(
    (next: AlarmView) => {
      setParams((current) => writeView(next, current));
    },
    [setParams],
  );
  const setOpen = useCallback(
    (id: string | null) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (id) next.set(OPEN, id);
        else next.delete(OPEN);
        return next;
      });
    },
    [setParams],
  );
  return { view, setView, open, setOpen };
}
