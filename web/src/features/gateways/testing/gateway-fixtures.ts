// Telemetry records and MSW handlers shared by the gateway tests.
import { http, HttpResponse } from 'msw';

import type { BleActivity, Gateway, GatewayActivity, PeripheralDiscovery } from '../../../lib/types.ts';
import { server } from '../../../testing/msw-server.ts';
import { gateway, GATEWAY_ID } from '../../../testing/records.ts';
import { emptyExtraReads } from '../../../testing/extra-reads.ts';

export function activity(n: number, overrides: Partial<GatewayActivity> = {}): GatewayActivity {
  return {
    _id: `act-${String(n)}`,
    gatewayId: GATEWAY_ID,
    meterId: `6b031854dbdeac91e41b63${String(n).padStart(2, '0')}`,
    mqttTopic: 'wmeter/v1/gw/SG01000003/reading',
    action: `reading ${String(n)} L`,
    timestamp: new Date(Date.UTC(2026, 10, 22, 16, 0, 59 - n)).toISOString(),
    ...overrides,
  };
}

interface Telemetry {
  ble?: BleActivity[];
  activity?: GatewayActivity[] | ((url: URL) => GatewayActivity[]);
  peripherals?: PeripheralDiscovery[];
}

/** The telemetry reads of the detail page; returns the activity requests seen. */
export function serveTelemetry(telemetry: Telemetry = {}) {
  const activityRequests: URL[] = [];
  server.use(
    http.get(`/api/proxy/gateways/ble-activity/${GATEWAY_ID}`, () => HttpResponse.json(telemetry.ble ?? [])),
    http.get(`/api/proxy/gateways/peripheral-discovery/${GATEWAY_ID}`, () => HttpResponse.json(telemetry.peripherals ?? [])),
    http.get(`/api/proxy/gateways/gateway-activity/${GATEWAY_ID}`, ({ request }) => {
      const url = new URL(request.url);
      activityRequests.push(url);
      const rows = typeof telemetry.activity === 'function' ? telemetry.activity(url) : (telemetry.activity ?? []);
      return HttpResponse.json(rows);
    }),
    ...emptyExtraReads(),
  );
  return activityRequests;
}

/** The gateway by id (and, for convenience, by its serial) plus empty telemetry. */
export function serveGateway(record: Gateway = gateway(), telemetry: Telemetry = {}) {
  server.use(
    http.get(`/api/proxy/gateways/${GATEWAY_ID}`, () => HttpResponse.json(record)),
    http.get(`/api/proxy/gateways/serial/${record.serialNumber}`, () => HttpResponse.json(record)),
  );
  return serveTelemetry(telemetry);
}
