import { api } from '../../../lib/api.ts';

export interface Credentials {
  username: string;
  password: string;
}

export interface LoginResponse {
  accessToken: string;
  role: string;
  userId: string;
}

/** `GET /api/auth/me`: the signed-in user (docs/administration.md). */
export interface Me {
  id: string;
  username: string;
  role: string;
  mustChangePassword: boolean;
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
  }),
});

export const { useLoginMutation, useLogoutMutation, useMeQuery, useChangePasswordMutation } = authApi;
