// Records and MSW handlers shared by the gateway tests.
import { http, HttpResponse } from 'msw';

import type { BleActivity, Gateway, GatewayActivity, PeripheralDiscovery } from '../../../lib/types.ts';
import { server } from '../../../testing/msw-server.ts';

export const GATEWAY_ID = '6b031854dbdeac91e41b6334';

export function gateway(overrides: Partial<Gateway> = {}): Gateway {
  return {
    _id: GATEWAY_ID,
    deviceName: 'GTW-SG01000003',
    serialNumber: 'SG01000003',
    imei: '350010000000003',
    bleAddress: '5A:01:00:00:03:01',
    macAddress: '5C:01:00:00:03:01',
    phoneNumber: '0701000003',
    gpsCoordinates: [4.8177, 45.76],
    lastseen: '2026-11-22T16:29:22.291038Z',
    registeredAt: '2026-11-22T16:29:08.863927Z',
    isOnline: true,
    discoveredPeripheralsCount: 3,
    recordsCount: 8,
    waterMetersCount: 5,
    ...overrides,
  };
}

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
