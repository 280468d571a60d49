// After a sign-in and at start-up, asks the server whether the password is
// one-time (docs/administration.md); when it is, nothing but the password
// change may be used. A token with the `chg` claim already says so: this
// covers a session whose token does not.
import { useEffect } from 'react';

import { useAppDispatch, useAppSelector } from '../../../lib/hooks.ts';
import { passwordChangeRequired, selectToken } from '../../../lib/session.ts';
import { useMeQuery } from '../api/auth-api.ts';

export function usePasswordCheck(): void {
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector(selectToken) !== null;
  // Read again at each mount: the answer cached may be another user's.
  const { data } = useMeQuery(undefined, { skip: !signedIn, refetchOnMountOrArgChange: true });
  const mustChange = data?.mustChangePassword === true;
  useEffect(() => {
    if (mustChange) dispatch(passwordChangeRequired());
  }, [mustChange, dispatch]);
}
