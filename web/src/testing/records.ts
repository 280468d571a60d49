// Devices shaped like the real API's answers (/api/docs), for the tests of
// every feature; override what a test is about.
import type { Gateway, WaterMeter } from '../lib/types.ts';

export const GATEWAY_ID = '6b031854dbdeac91e41b6334';
export const METER_ID = '6b031854dbdeac91e41b633c';

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
