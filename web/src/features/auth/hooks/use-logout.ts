// Logout clears the four stored values even when the server call fails (spec §4, §8).
import { useCallback } from 'react';
import { useNavigate } from 'react-router';

import { api } from '../../../lib/api.ts';
import { useAppDispatch } from '../../../lib/hooks.ts';
import { signedOut } from '../../../lib/session.ts';
import { useLogoutMutation } from '../api/auth-api.ts';

export function useLogout() {
  const [logout] = useLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await logout(undefined).unwrap();
    } catch (error) {
      console.warn('logout request failed; the local session is cleared anyway', error);
    }
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
    await navigate('/login', { replace: true });
  }, [logout, dispatch, navigate]);
}
