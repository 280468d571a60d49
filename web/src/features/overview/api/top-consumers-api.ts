// The meters that used the most over the last days (docs/analytics.md,
// GET /api/rollups/top): the server keeps an answer a minute. Readings
// refetch it with the network's series (tag `Network`, at most once a minute).
import { api } from '../../../lib/api.ts';

export interface TopConsumersArg {
  /** Local days, today included (1 to 31). */
  days: number;
  limit: number;
}

export interface TopConsumer {
  meterId: string;
  meterName: string | null;
  volumeMl: number;
}

export interface TopConsumers {
  from: string;
  to: string;
  /** Most first. */
  items: TopConsumer[];
}

const topConsumersApi = api.injectEndpoints({
  endpoints: (build) => ({
    topConsumers: build.query<TopConsumers, TopConsumersArg>({
      query: ({ days, limit }) => ({ url: 'api/rollups/top', params: { days, limit } }),
      providesTags: ['Network'],
    }),
  }),
});

export const { useTopConsumersQuery } = topConsumersApi;
