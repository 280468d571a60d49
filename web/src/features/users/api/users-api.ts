// The users, for admins (`/api/admin/users`, docs/administration.md). The
// list carries `User` LIST and one tag per user; a change re-reads both,
// even when refused: another admin may have changed the user first.
import { api } from '../../../lib/api.ts';
import type { Role } from '../../../lib/permissions.ts';

export interface ManagedUser {
  id: string;
  username: string;
  role: string;
  disabled: boolean;
  /** RFC 3339. */
  createdAt: string;
  /** The password is one-time: the user must change it first. */
  mustChangePassword: boolean;
}

export interface NewUser {
  username: string;
  role: Role;
  /** Left out: the server makes a one-time password. */
  password?: string;
}

export interface CreatedUser {
  user: ManagedUser;
  /** Shown once: only when the server made it. */
  oneTimePassword?: string;
}

export type UserPatch = { id: string } & ({ role: Role } | { disabled: boolean });

const USER_LIST_TAG = { type: 'User', id: 'LIST' } as const;
const userTag = (id: string) => ({ type: 'User', id }) as const;
const path = (id: string) => `api/admin/users/${encodeURIComponent(id)}`;

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The users whose name holds `q` (any case), by username; all for an empty `q`. */
    users: build.query<ManagedUser[], string>({
      query: (q) => ({ url: 'api/admin/users', ...(q ? { params: { q } } : {}) }),
      transformResponse: (body: { items: ManagedUser[] }) => body.items,
      providesTags: (result) => [USER_LIST_TAG, ...(result ?? []).map((user) => userTag(user.id))],
    }),
    createUser: build.mutation<CreatedUser, NewUser>({
      query: (body) => ({ url: 'api/admin/users', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [USER_LIST_TAG] : []),
    }),
    updateUser: build.mutation<ManagedUser, UserPatch>({
      query: ({ id, ...body }) => ({ url: path(id), method: 'PATCH', body }),
      invalidatesTags: (_result, _error, { id }) => [userTag(id), USER_LIST_TAG],
    }),
    /** A new one-time password, shown once; the old one and every session end. */
    resetPassword: build.mutation<string, string>({
      query: (id) => ({ url: `${path(id)}/password-reset`, method: 'POST' }),
      transformResponse: (body: { oneTimePassword: string }) => body.oneTimePassword,
      invalidatesTags: (_result, _error, id) => [userTag(id)],
    }),
    revokeSessions: build.mutation<null, string>({
      query: (id) => ({ url: `${path(id)}/revoke-sessions`, method: 'POST' }),
    }),
  }),
});

export const {
  useUsersQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useResetPasswordMutation,
  useRevokeSessionsMutation,
} = usersApi;
