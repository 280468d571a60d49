// The meter lists and their counts (spec §7, Water meters and Counts).
import { api } from '../../../lib/api.ts';
import { idOf } from '../../../lib/format.ts';
import type { Count, PageParams, WaterMeter } from '../../../lib/types.ts';
import { METER_LIST_TAG, meterCountTag, meterListTag, meterTag, type MeterListKind } from './meter-tags.ts';

const LIST_PATH: Record<MeterListKind, string> = {
  all: 'api/proxy/wmeters',
  lost: 'api/proxy/wmeters/lost',
  down: 'api/proxy/wmeters/down',
  critical: 'api/proxy/wmeters/critical',
};

export type MeterPageArg = PageParams & { kind: MeterListKind };

/** `max`, then `start` and `reverse` only when set. */
function pageQuery({ max, start, reverse }: PageParams): Record<string, string | number | boolean> {
  return { max, ...(start ? { start } : {}), ...(reverse ? { reverse } : {}) };
}

export const meterListsApi = api.injectEndpoints({
  endpoints: (build) => ({
    meterCount: build.query<number, MeterListKind>({
      query: (kind) => `${LIST_PATH[kind]}/count`,
      transformResponse: (response: Count) => response.count,
      providesTags: (_result, _error, kind) => [meterCountTag(kind)],
    }),
    meterPage: build.query<WaterMeter[], MeterPageArg>({
      query: ({ kind, ...params }) => ({ url: LIST_PATH[kind], params: pageQuery(params) }),
      providesTags: (result, _error, { kind }) => [
        METER_LIST_TAG,
        meterListTag(kind),
        ...(result ?? []).map((meter) => meterTag(idOf(meter._id))),
      ],
    }),
  }),
});

export const { useMeterCountQuery, useLazyMeterPageQuery } = meterListsApi;
