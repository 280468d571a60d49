import { api } from '../../../lib/api.ts';
import { PREFERENCES_SAVE_TIMEOUT_MS } from '../../../lib/constants.ts';
import type { Language } from '../../../lib/i18n.ts';
import type { ThemeChoice } from '../../../lib/theme-choice.ts';

export interface Credentials {
  username: string;
  password: string;
}

export interface LoginResponse {
  accessToken: string;
  role: string;
  userId: string;
}

/** The signed-in user's choices, kept by the server for every device they use. */
export interface Preferences {
  /** Null until a language is chosen. */
  language: Language | null;
  theme: ThemeChoice;
}

/** `GET /api/auth/me`: the signed-in user (docs/administration.md). */
export interface Me {
  id: string;
  username: string;
  role: string;
  mustChangePassword: boolean;
  /** Absent from a server that keeps no preferences. */
  preferences?: Preferences;
}

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, Credentials>({
      query: (body) => ({ url: 'api/auth/login', method: 'POST', body }),
    }),
    logout: build.mutation<null, undefined>({
      query: () => ({ url: 'api/auth/logout', method: 'POST', responseHandler: 'text' }),
    }),
    me: build.query<Me, undefined>({
      query: () => 'api/auth/me',
      providesTags: ['Me'],
    }),
    /** Answered as a sign-in: a new access token (and refresh cookie) for this session. */
    changePassword: build.mutation<LoginResponse, PasswordChange>({
      query: (body) => ({ url: 'api/auth/password', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        // At once, so no guard reads the old answer while `me` is read again.
        dispatch(
          authApi.util.updateQueryData('me', undefined, (me) => {
            me.mustChangePassword = false;
          }),
        );
      },
      invalidatesTags: (result) => (result ? ['Me'] : []),
    }),
    /** `PUT /api/auth/preferences`: what is stored becomes `me`'s, without reading `me` again. */
    savePreferences: build.mutation<Preferences, Preferences>({
      query: (body) => ({ url: 'api/auth/preferences', method: 'PUT', body, timeout: PREFERENCES_SAVE_TIMEOUT_MS }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        let stored: Preferences;
        try {
          stored = (await queryFulfilled).data;
        } catch {
          return;
        }
        dispatch(
          authApi.util.updateQueryData('me', undefined, (me) => {
            me.preferences = stored;
          }),
        );
      },
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation, useMeQuery, useChangePasswordMutation, useSavePreferencesMutation } = authApi;
