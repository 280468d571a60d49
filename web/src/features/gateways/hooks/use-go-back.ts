import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Back (spec §2, §4): one step back in history, or to the gateways list when
 * the detail page was opened directly and there is nothing to go back to.
 */
export function useGoBack() {
  const navigate = useNavigate();
  const { key } = useLocation();
  return useCallback(() => {
    if (key === 'default') void navigate('/gateways');
    else void navigate(-1);
  }, [key, navigate]);
}
