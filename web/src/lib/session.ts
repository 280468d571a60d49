// The signed-in session (spec §3, §4): four values in localStorage, mirrored
// in the Redux store so requests and screens read one source.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface Session {
  token: string;
  role: string;
  username: string;
  userId: string;
}

export type SessionState = { [K in keyof Session]: string | null };

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

/** The `exp` claim of a JWT in seconds, or null when the token is unreadable. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp : null;
  } catch {
    return null;
  }
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
    signedIn(_state, action: PayloadAction<Session>) {
      writeStored(action.payload);
      return { ...action.payload };
    },
    tokenRefreshed(state, action: PayloadAction<string>) {
      writeStored({ token: action.payload });
      state.token = action.payload;
    },
    signedOut() {
      clearStored();
      return { token: null, role: null, username: null, userId: null };
    },
  },
  selectors: {
    selectToken: (state) => state.token,
    selectUsername: (state) => state.username,
    selectUserId: (state) => state.userId,
    selectRole: (state) => state.role,
  },
});

export const { signedIn, tokenRefreshed, signedOut } = sessionSlice.actions;
export const { selectToken, selectUsername, selectUserId, selectRole } = sessionSlice.selectors;
