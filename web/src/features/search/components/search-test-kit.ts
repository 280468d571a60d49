// Devices as `GET /api/proxy/search` answers them, for the search tests.
import type { Gateway, WaterMeter } from '../../../lib/types.ts';

export const gateway = (overrides: Partial<Gateway> = {}): Gateway => ({
  _id: '6b031854dbdeac91e41b6334',
  deviceName: 'GTW-SG01000003',
  serialNumber: 'SG01000003',
  imei: '350010000000003',
  bleAddress: '5A:01:00:00:03:01',
  macAddress: '5C:01:00:00:03:01',
  phoneNumber: '0701000003',
  gpsCoordinates: [4.8177, 45.76],
  lastseen: null,
  registeredAt: '2026-11-22T16:29:08.863927Z',
  isOnline: true,
  discoveredPeripheralsCount: 0,
  recordsCount: 8,
  waterMetersCount: 5,
  ...overrides,
});

export const meter = (overrides: Partial<WaterMeter> = {}): WaterMeter => ({
  _id: '6b031854dbdeac91e41b633c',
  deviceName: 'W-SM01000059',
  serialNumber: 'SM01000059',
  bleAddress: '5B:01:00:00:3B:01',
  gpsCoordinates: [4.813022, 45.759247],
  lastseen: null,
  registeredAt: '2026-11-22T16:29:08.868918Z',
  totalConsumption: 12,
  criticalState: true,
  deviceStatus: 'Up',
  lastGatewayId: '6b031854dbdeac91e41b6334',
  valveCommand: null,
  ...overrides,
});
