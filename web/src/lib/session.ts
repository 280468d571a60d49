// The signed-in session (spec §3, §4): four values in localStorage, mirrored
// in the Redux store so requests and screens read one source.
import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface Session {
  token: string;
  role: string;
  username: string;
  userId: string;
}

export type SessionState = { [K in keyof Session]: string | null } & {
  /**
   * The server said the password must be changed first (`/api/auth/me`, or a
   * 403 `password_change_required`). Kept in memory only: a token with the
   * `chg` claim says the same after a reload.
   */
  mustChangePassword?: boolean;
};

const KEYS: readonly (keyof Session)[] = ['token', 'role', 'username', 'userId'];

export function readStoredSession(storage: Storage = localStorage): SessionState {
  return {
    token: storage.getItem('token'),
    role: storage.getItem('role'),
    username: storage.getItem('username'),
    userId: storage.getItem('userId'),
  };
}

function writeStored(values: Partial<Session>, storage: Storage = localStorage) {
  for (const key of KEYS) {
    const value = values[key];
    if (value !== undefined) storage.setItem(key, value);
  }
}

function clearStored(storage: Storage = localStorage) {
  for (const key of KEYS) storage.removeItem(key);
}

/** The payload of a JWT (unverified: the server checks it), or null when it is unreadable. */
export function tokenClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The `exp` claim of a JWT in seconds, or null when the token is unreadable. */
export function tokenExpiry(token: string): number | null {
  const exp = tokenClaims(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

/** The `role` claim of an access token (admin, operator or viewer), when it has one. */
export function tokenRole(token: string): string | null {
  const role = tokenClaims(token)?.role;
  return typeof role === 'string' && role ? role : null;
}

/** Whether an access token carries `chg`: its password is one-time and must be changed first. */
export function tokenMustChangePassword(token: string | null): boolean {
  return token !== null && tokenClaims(token)?.chg === true;
}

/** Missing, unreadable or expired tokens all need a refresh (spec §4). */
export function tokenNeedsRefresh(token: string | null, nowMs: number = Date.now()): boolean {
  if (!token) return true;
  const exp = tokenExpiry(token);
  return exp === null || exp * 1000 <= nowMs;
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: (): SessionState => readStoredSession(),
  reducers: {
    /** A sign-in, or a password change (answered as one): a required change goes with the old token. */
    signedIn(_state, action: PayloadAction<Session>) {
      writeStored(action.payload);
      return { ...action.payload };
    },
    /**
     * A new access token from a refresh. Its role is the user's role now (an
     * admin may have changed it), so the session follows it.
     */
    tokenRefreshed(state, action: PayloadAction<string>) {
      const role = tokenRole(action.payload);
      writeStored({ token: action.payload, ...(role ? { role } : {}) });
      state.token = action.payload;
      if (role) state.role = role;
    },
    signedOut() {
      clearStored();
      return { token: null, role: null, username: null, userId: null };
    },
    passwordChangeRequired(state) {
      state.mustChangePassword = true;
    },
  },
  selectors: {
    selectToken: (state) => state.token,
    selectUsername: (state) => state.username,
    selectUserId: (state) => state.userId,
    selectRole: (state) => state.role,
    /** Nothing but the password change may be used (the token is decoded once per token). */
    selectMustChangePassword: createSelector(
      [(state: SessionState) => state.token, (state: SessionState) => state.mustChangePassword],
      (token, flagged) => flagged === true || tokenMustChangePassword(token),
    ),
  },
});

export const { signedIn, tokenRefreshed, signedOut, passwordChangeRequired } = sessionSlice.actions;
export const { selectToken, selectUsername, selectUserId, selectRole, selectMustChangePassword } =
  sessionSlice.selectors;
