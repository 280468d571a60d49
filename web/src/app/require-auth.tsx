// Every route but /login needs a token; otherwise go to /login (spec §6).
import { Navigate, Outlet, useLocation } from 'react-router';

import { useAppSelector } from '../lib/hooks.ts';
import { selectToken } from '../lib/session.ts';

export function RequireAuth() {
  const token = useAppSelector(selectToken);
  const location = useLocation();
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
