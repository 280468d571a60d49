// Gateway records (spec §7, Gateways): lists, counts, one gateway, edit, delete.
// Tags: each gateway is `{type:'Gateway', id}`; lists and counts are 'LIST'.
import { api } from '../../../lib/api.ts';
import type { DeviceLookup } from '../../../lib/format.ts';
import { idOf } from '../../../lib/format.ts';
import type { Count, Gateway, PageParams } from '../../../lib/types.ts';

const LIST = { type: 'Gateway', id: 'LIST' } as const;

export type GatewayListKind = 'all' | 'lost';

const LIST_URL: Record<GatewayListKind, string> = {
  all: 'api/proxy/gateways',
  lost: 'api/proxy/gateways/lost',
};

export interface GatewayChanges {
  phoneNumber?: string;
  gpsCoordinates?: [number, number];
}

export const gatewaysApi = api.injectEndpoints({
  endpoints: (build) => ({
    gatewayList: build.query<Gateway[], { kind: GatewayListKind; page: PageParams }>({
      query: ({ kind, page }) => ({ url: LIST_URL[kind], params: page }),
      providesTags: [LIST],
    }),
    gatewayCount: build.query<number, GatewayListKind>({
      query: (kind) => `${LIST_URL[kind]}/count`,
      transformResponse: (body: Count) => body.count,
      providesTags: [LIST],
    }),
    gatewayDetail: build.query<Gateway, DeviceLookup>({
      query: (lookup) =>
        lookup.by === 'id'
          ? `api/proxy/gateways/${lookup.id}`
          : `api/proxy/gateways/serial/${encodeURIComponent(lookup.serial)}`,
      providesTags: (gateway) => (gateway ? [{ type: 'Gateway', id: idOf(gateway._id) }] : []),
    }),
    gatewayUpdate: build.mutation<Gateway, { id: string; changes: GatewayChanges }>({
      query: ({ id, changes }) => ({ url: `api/proxy/gateways/${id}`, method: 'PATCH', body: changes }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Gateway', id }],
    }),
    gatewayDelete: build.mutation<undefined, string>({
      query: (id) => ({ url: `api/proxy/gateways/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [{ type: 'Gateway', id }, LIST]),
    }),
  }),
});

export const {
  useLazyGatewayListQuery,
  useGatewayCountQuery,
  useGatewayDetailQuery,
  useGatewayUpdateMutation,
  useGatewayDeleteMutation,
} = gatewaysApi;
