// One water meter: read by id or serial, move it, delete it (spec §7).
import { api } from '../../../lib/api.ts';
import { idOf, type DeviceLookup } from '../../../lib/format.ts';
import type { Gps } from '../../../lib/validation.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { ALL_METER_COUNT_TAGS, METER_LIST_TAG, meterTag } from './meter-tags.ts';

export interface MeterGpsUpdate {
  id: string;
  gpsCoordinates: Gps;
}

export const meterDetailApi = api.injectEndpoints({
  endpoints: (build) => ({
    meterDetail: build.query<WaterMeter, DeviceLookup>({
      query: (lookup) =>
        lookup.by === 'id'
          ? `api/proxy/wmeters/${encodeURIComponent(lookup.id)}`
          : `api/proxy/wmeters/serial/${encodeURIComponent(lookup.serial)}`,
      providesTags: (result) => (result ? [meterTag(idOf(result._id))] : []),
    }),
    meterUpdate: build.mutation<WaterMeter, MeterGpsUpdate>({
      query: ({ id, gpsCoordinates }) => ({
        url: `api/proxy/wmeters/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: { gpsCoordinates },
      }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [meterTag(id)]),
    }),
    meterDelete: build.mutation<null, string>({
      query: (id) => ({ url: `api/proxy/wmeters/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [meterTag(id), METER_LIST_TAG, ...ALL_METER_COUNT_TAGS]),
    }),
  }),
});

export const { useMeterDetailQuery, useMeterUpdateMutation, useMeterDeleteMutation } = meterDetailApi;
