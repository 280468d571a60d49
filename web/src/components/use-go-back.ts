// Back (spec §2, §4): one step back in history, or to `fallback` when the
// page was opened directly and this tab has nothing to go back to.
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

export function useGoBack(fallback: string) {
  const navigate = useNavigate();
  const firstEntry = useLocation().key === 'default';
  return useCallback(() => {
    if (firstEntry) void navigate(fallback);
    else void navigate(-1);
  }, [firstEntry, fallback, navigate]);
}
