// What a meter reported: consumption, alerts and activity (spec §7).
import { api } from '../../../lib/api.ts';
import { PAGE_SIZE } from '../../../lib/constants.ts';
import type { BleActivity, ConsumptionRecord, CriticalAlert, GatewayActivity } from '../../../lib/types.ts';

const path = (what: string, id: string) => `api/proxy/wmeters/${what}/${encodeURIComponent(id)}`;

export interface OlderPageArg {
  id: string;
  /** Only rows older than this timestamp (the oldest shown). */
  start?: string;
}

export interface MeterActivityArg extends OlderPageArg {
  /** Only the activity through this gateway (the drill-down). */
  gatewayId?: string;
}

export interface MeterAlertsArg {
  id: string;
  onlyRaised?: boolean;
}

export const meterTelemetryApi = api.injectEndpoints({
  endpoints: (build) => ({
    meterConsumption: build.query<ConsumptionRecord[], OlderPageArg>({
      query: ({ id, start }) => ({
        url: path('consumption', id),
        params: { max: PAGE_SIZE, ...(start ? { start } : {}) },
      }),
      providesTags: (_result, _error, { id }) => [{ type: 'Consumption', id }],
    }),
    meterGatewayActivity: build.query<GatewayActivity[], MeterActivityArg>({
      query: ({ id, start, gatewayId }) => ({
        url: path('gateway-activity', id),
        params: { max: PAGE_SIZE, ...(start ? { start } : {}), ...(gatewayId ? { gatewayId } : {}) },
      }),
      providesTags: (_result, _error, { id }) => [{ type: 'Activity', id }],
    }),
    meterBleActivity: build.query<BleActivity[], string>({
      query: (id) => path('ble-activity', id),
      providesTags: (_result, _error, id) => [{ type: 'Activity', id }],
    }),
    meterAlerts: build.query<CriticalAlert[], MeterAlertsArg>({
      query: ({ id, onlyRaised }) => ({
        url: path('critical', id),
        ...(onlyRaised ? { params: { onlyRaised: true } } : {}),
      }),
      providesTags: (_result, _error, { id }) => [{ type: 'Critical', id }],
    }),
  }),
});

export const {
  useLazyMeterConsumptionQuery,
  useLazyMeterGatewayActivityQuery,
  useMeterBleActivityQuery,
  useMeterAlertsQuery,
} = meterTelemetryApi;
