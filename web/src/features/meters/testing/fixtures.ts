// Records and MSW handlers shared by the meters tests, shaped like the real
// API's answers (/api/docs).
import { http, HttpResponse, type HttpHandler } from 'msw';

import type { WaterMeter } from '../../../lib/types.ts';

export const METER_ID = '6b031854dbdeac91e41b633c';
export const GATEWAY_ID = '6b031854dbdeac91e41b6334';

export function meter(overrides: Partial<WaterMeter> = {}): WaterMeter {
  return {
    _id: METER_ID,
    deviceName: 'W-SM01000059',
    serialNumber: 'SM01000059',
    bleAddress: '5B:01:00:00:3B:01',
    gpsCoordinates: [4.813022, 45.759247],
    lastseen: '2026-11-22T16:29:19.090743Z',
    registeredAt: '2026-11-22T16:29:08.868918Z',
    totalConsumption: 12,
    criticalState: false,
    deviceStatus: 'Up',
    lastGatewayId: GATEWAY_ID,
    valveCommand: null,
    ...overrides,
  };
}

/** `n` meters with distinct hex ids, registered one second apart (newest first). */
export function meters(n: number, from = 0): WaterMeter[] {
  return Array.from({ length: n }, (_, i) =>
    meter({
      _id: (from + i).toString(16).padStart(24, '0'),
      deviceName: `Meter ${String(from + i)}`,
      serialNumber: `SM${String(from + i).padStart(8, '0')}`,
      registeredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 59 - i)).toISOString(),
      lastseen: null,
    }),
  );
}

export const json = (body: unknown, status = 200) => HttpResponse.json(body as object, { status });

/** Every read a detail page makes, with empty answers unless overridden. */
export function detailHandlers(record: WaterMeter = meter()): HttpHandler[] {
  const id = typeof record._id === 'string' ? record._id : record._id.$oid;
  return [
    http.get(`/api/proxy/wmeters/consumption/${id}`, () => json([])),
    http.get(`/api/proxy/wmeters/critical/${id}`, () => json([])),
    http.get(`/api/proxy/wmeters/ble-activity/${id}`, () => json([])),
    http.get(`/api/proxy/wmeters/gateway-activity/${id}`, () => json([])),
    http.get(`/api/proxy/wmeters/shutdown-requests/${id}`, () => json({ status: null })),
    http.get(`/api/proxy/wmeters/${id}`, () => json(record)),
  ];
}
