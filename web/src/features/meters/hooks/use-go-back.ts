// Back to where the user came from; to `fallback` when the page was opened
// directly (there is no earlier entry in this tab's history).
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
