// A gateway's traffic per local day (docs/analytics.md, GET /api/traffic):
// the uplinks it relayed and the meters it heard, every day of the range
// present. Read once per visit: an uplink hint per message would refetch it
// twice a second on a busy gateway, so it has no tag.
import { api } from '../../../lib/api.ts';

export interface TrafficArg {
  gateway: string;
  /** ISO 8601 instants; `to` is excluded. */
  from: string;
  to: string;
}

export interface TrafficPoint {
  start: string;
  end: string;
  uplinks: number;
  /** Meters heard that day, each once. */
  meters: number;
}

export interface Traffic {
  gatewayId: string;
  timeZone: string;
  from: string;
  to: string;
  points: TrafficPoint[];
}

const trafficApi = api.injectEndpoints({
  endpoints: (build) => ({
    gatewayTraffic: build.query<Traffic, TrafficArg>({
      query: (params) => ({ url: 'api/traffic', params: { ...params } }),
    }),
  }),
});

export const { useGatewayTrafficQuery } = trafficApi;
