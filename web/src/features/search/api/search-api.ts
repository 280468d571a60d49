// `GET /api/proxy/search?q=&radius=` (spec §7): gateways and meters mixed.
import { api } from '../../../lib/api.ts';
import type { Device } from '../../../lib/types.ts';

export interface SearchParams {
  q: string;
  /** Metres; 0 is OFF. */
  radius: number;
}

const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    searchDevices: build.query<Device[], SearchParams>({
      query: ({ q, radius }) => ({ url: 'api/proxy/search', params: { q, radius } }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazySearchDevicesQuery } = searchApi;
