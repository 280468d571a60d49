// On start, a missing, unreadable or expired token is refreshed; when the
// refresh fails the user is logged out (spec §4). Runs once per app start.
import { useEffect, useState } from 'react';
import { useStore } from 'react-redux';

import { api } from '../../../lib/api.ts';
import { useAppDispatch, type SharedState } from '../../../lib/hooks.ts';
import { tokenNeedsRefresh } from '../../../lib/session.ts';
import { authApi } from '../api/auth-api.ts';

/** False while the start-up refresh runs, then true. */
export function useSessionCheck(): boolean {
  const dispatch = useAppDispatch();
  const store = useStore<SharedState>();
  const [done, setDone] = useState(() => !tokenNeedsRefresh(store.getState().session.token));

  useEffect(() => {
    if (done) return;
    const effect = new AbortController();
    void (async () => {
      const refreshed = await dispatch(api.endpoints.refreshToken.initiate(undefined));
      if (typeof refreshed.data !== 'string') {
        // The server forgets the session too; its answer does not matter.
        await dispatch(authApi.endpoints.logout.initiate(undefined));
      }
      if (!effect.signal.aborted) setDone(true);
    })();
    return () => {
      effect.abort();
    };
  }, [done, dispatch]);

  return done;
}
