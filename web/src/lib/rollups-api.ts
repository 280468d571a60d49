// Consumption series from the rollups (docs/analytics.md): a meter's, a
// gateway's or the network's consumption per hour, day or month. A reading
// hint refetches the meter's series (tag `Consumption`, the meter's id); the
// network's is tagged `Network`, which hints refetch at most once a minute.
import { api } from './api.ts';

export type Bucket = 'hour' | 'day' | 'month';

export interface SeriesArg {
  meter?: string;
  gateway?: string;
  bucket: Bucket;
  /** ISO 8601 instants; `to` is excluded. */
  from: string;
  to: string;
}

export interface SeriesPoint {
  /** The bucket's first instant. */
  start: string;
  volumeMl: number;
  readings: number;
}

export interface Series {
  scope: 'meter' | 'gateway' | 'network';
  bucket: Bucket;
  timeZone: string;
  from: string;
  to: string;
  totalMl: number;
  points: SeriesPoint[];
}

/** The query parameters of a series, for `/api/rollups` and its CSV export. */
export function seriesParams({ meter, gateway, bucket, from, to }: SeriesArg): Record<string, string> {
  return { bucket, from, to, ...(meter ? { meter } : {}), ...(gateway ? { gateway } : {}) };
}

export const rollupsApi = api.injectEndpoints({
  endpoints: (build) => ({
    consumptionSeries: build.query<Series, SeriesArg>({
      query: (arg) => ({ url: 'api/rollups', params: seriesParams(arg) }),
      providesTags: (_result, _error, { meter, gateway }) => {
        const id = meter ?? gateway;
        return id ? [{ type: 'Consumption', id }] : ['Network'];
      },
    }),
  }),
});

export const { useConsumptionSeriesQuery } = rollupsApi;
