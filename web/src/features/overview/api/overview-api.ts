// The overview's reads (spec §7): the six counts and the latest gateway activity.
import { api } from '../../../lib/api.ts';
import type { Count, GatewayActivity } from '../../../lib/types.ts';

/** The count routes under `api/proxy/` that the overview gauges read. */
export type OverviewCountPath =
  | 'gateways/count'
  | 'gateways/lost/count'
  | 'wmeters/count'
  | 'wmeters/unhealthy/count'
  | 'wmeters/lost/count'
  | 'wmeters/critical/count';

const overviewApi = api.injectEndpoints({
  endpoints: (build) => ({
    overviewCount: build.query<number, OverviewCountPath>({
      query: (path) => `api/proxy/${path}`,
      transformResponse: (body: Count) => body.count,
      providesTags: (_result, _error, path) => [{ type: 'Count', id: path }],
    }),
    overviewActivity: build.query<GatewayActivity[], number>({
      query: (max) => ({ url: 'api/proxy/gateways/gateway-activity', params: { max } }),
      providesTags: [{ type: 'Activity', id: 'LIST' }],
    }),
  }),
});

export const { useOverviewCountQuery, useOverviewActivityQuery } = overviewApi;
