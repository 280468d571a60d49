// Every route but /login needs a token; otherwise go to /login (spec §6).
// While the password is one-time, every route but the password change
// leads there (docs/administration.md). Once signed in, the user's
// preferences kept on the server (language, theme) apply here.
import { Navigate, Outlet, useLocation } from 'react-router';

import { usePasswordCheck } from '../features/auth/hooks/use-password-check.ts';
import { usePreferencesSync } from '../features/auth/hooks/use-preferences-sync.ts';
import { useAppSelector } from '../lib/hooks.ts';
import { selectMustChangePassword, selectToken } from '../lib/session.ts';

export const CHANGE_PASSWORD_PATH = '/change-password';

export function RequireAuth() {
  const token = useAppSelector(selectToken);
  const mustChange = useAppSelector(selectMustChangePassword);
  const location = useLocation();
  usePasswordCheck();
  usePreferencesSync();
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (mustChange && location.pathname !== CHANGE_PASSWORD_PATH) return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  return <Outlet />;
}
