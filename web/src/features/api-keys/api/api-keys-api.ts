// The API keys, for admins (`/api/admin/api-keys`): programs send one as
// `Authorization: Bearer <key>` and act with its role until it expires or is
// revoked. The list carries `ApiKey` LIST and one tag per key; a creation
// re-reads the list, a revocation its key and the list, even when refused:
// another admin may have revoked it first.
import { api } from '../../../lib/api.ts';
import type { Role } from '../../../lib/permissions.ts';

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

export interface ApiKey {
  id: string;
  name: string;
  /** The recognisable start of the key, e.g. `wmk_3fq8k2ma`. */
  prefix: string;
  role: string;
  /** RFC 3339, as are the other times. */
  createdAt: string;
  /** The creator's username. */
  createdBy: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  lastUsedAddress: string | null;
  status: ApiKeyStatus;
}

export interface NewApiKey {
  /** Trimmed, 1 to API_KEY_NAME_MAX_CHARS characters. */
  name: string;
  role: Role;
  /** RFC 3339, in the future and at most API_KEY_MAX_DAYS ahead. */
  expiresAt: string;
}

export interface CreatedApiKey {
  key: ApiKey;
  /** The whole key, `wmk_<prefix>_<secret>`: shown once, never again. */
  secret: string;
}

const LIST_TAG = { type: 'ApiKey', id: 'LIST' } as const;
const keyTag = (id: string) => ({ type: 'ApiKey', id }) as const;

export const apiKeysApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every key, newest first. */
    apiKeys: build.query<ApiKey[], undefined>({
      query: () => 'api/admin/api-keys',
      transformResponse: (body: { items: ApiKey[] }) => body.items,
      providesTags: (result) => [LIST_TAG, ...(result ?? []).map((key) => keyTag(key.id))],
    }),
    createApiKey: build.mutation<CreatedApiKey, NewApiKey>({
      query: (body) => ({ url: 'api/admin/api-keys', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [LIST_TAG] : []),
    }),
    revokeApiKey: build.mutation<ApiKey, string>({
      query: (id) => ({ url: `api/admin/api-keys/${encodeURIComponent(id)}/revoke`, method: 'POST' }),
      invalidatesTags: (_result, _error, id) => [keyTag(id), LIST_TAG],
    }),
  }),
});

export const { useApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } = apiKeysApi;
