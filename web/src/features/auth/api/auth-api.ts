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

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, Credentials>({
      query: (body) => ({ url: 'api/auth/login', method: 'POST', body }),
    }),
    logout: build.mutation<null, undefined>({
      query: () => ({ url: 'api/auth/logout', method: 'POST', responseHandler: 'text' }),
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation } = authApi;
