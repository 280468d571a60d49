// A meter's leak-detector thresholds (docs/analytics.md, Thresholds per
// meter): read by anyone signed in, set by operators and admins. A
// `thresholds` hint refetches them live.
import { api } from '../../../lib/api.ts';

export const THRESHOLD_NAMES = ['continuousFlowHours', 'nightFlowLitresPerHour', 'burstLitresPerHour', 'stuckMeterDays'] as const;
export type ThresholdName = (typeof THRESHOLD_NAMES)[number];

/** One value per threshold; `null` follows the network's default. */
export type ThresholdValues = Record<ThresholdName, number | null>;

export interface MeterThresholds {
  meterId: string;
  /** The meter's own; `null` where it follows the default. */
  own: ThresholdValues;
  defaults: Record<ThresholdName, number>;
  /** Those its detectors use. */
  effective: Record<ThresholdName, number>;
  /** Who last set the meter's own, and when. */
  updatedBy: { id: string; name: string } | null;
  updatedAt: string | null;
}

export const thresholdsTag = (meterId: string) => ({ type: 'Thresholds', id: meterId }) as const;

const path = (meterId: string) => `api/thresholds/${encodeURIComponent(meterId)}`;

export const thresholdsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getThresholds: build.query<MeterThresholds, string>({
      query: path,
      providesTags: (_result, _error, meterId) => [thresholdsTag(meterId)],
    }),
    /** The meter's own thresholds, whole: a `null` one follows the default. */
    setThresholds: build.mutation<MeterThresholds, { meterId: string; values: ThresholdValues }>({
      query: ({ meterId, values }) => ({ url: path(meterId), method: 'PUT', body: values }),
      invalidatesTags: (_result, error, { meterId }) => (error ? [] : [thresholdsTag(meterId)]),
    }),
  }),
});

export const { useGetThresholdsQuery, useSetThresholdsMutation } = thresholdsApi;
