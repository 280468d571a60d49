// One gateway's telemetry (spec §7): gateway activity (paged, optionally for
// one meter), BLE activity and discovered peripherals.
import { api } from '../../../lib/api.ts';
import { PAGE_SIZE } from '../../../lib/constants.ts';
import type { BleActivity, GatewayActivity, PeripheralDiscovery } from '../../../lib/types.ts';

export interface ActivityPage {
  gatewayId: string;
  /** Only rows older than this timestamp. */
  start?: string;
  meterId?: string;
}

const telemetryApi = api.injectEndpoints({
  endpoints: (build) => ({
    gatewayActivityPage: build.query<GatewayActivity[], ActivityPage>({
      query: ({ gatewayId, ...params }) => ({
        url: `api/proxy/gateways/gateway-activity/${gatewayId}`,
        params: { max: PAGE_SIZE, ...params },
      }),
      providesTags: (_result, _error, { gatewayId }) => [{ type: 'Activity', id: gatewayId }],
    }),
    gatewayBleActivity: build.query<BleActivity[], string>({
      query: (gatewayId) => `api/proxy/gateways/ble-activity/${gatewayId}`,
      providesTags: (_result, _error, gatewayId) => [{ type: 'Activity', id: gatewayId }],
    }),
    gatewayPeripherals: build.query<PeripheralDiscovery[], string>({
      query: (gatewayId) => `api/proxy/gateways/peripheral-discovery/${gatewayId}`,
      providesTags: (_result, _error, gatewayId) => [{ type: 'Activity', id: gatewayId }],
    }),
  }),
});

export const {
  useLazyGatewayActivityPageQuery,
  useGatewayBleActivityQuery,
  useGatewayPeripheralsQuery,
} = telemetryApi;
