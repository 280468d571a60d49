// The API's records as the dashboard reads them (spec §3; docs at /api/docs).
export type RecordId = string | { $oid: string };
export type GpsValue = readonly number[] | string | null;

export interface Gateway {
  _id: RecordId;
  deviceName: string | null;
  serialNumber: string;
  imei: string;
  bleAddress: string;
  macAddress: string;
  phoneNumber: string;
  gpsCoordinates: GpsValue;
  lastseen: string | null;
  registeredAt: string;
  isOnline: boolean;
  discoveredPeripheralsCount: number;
  recordsCount: number;
  waterMetersCount: number;
}

export interface ValveCommand {
  status: string;
}

export interface WaterMeter {
  _id: RecordId;
  deviceName: string | null;
  serialNumber: string;
  bleAddress: string;
  gpsCoordinates: GpsValue;
  lastseen: string | null;
  registeredAt: string;
  totalConsumption: number;
  criticalState: boolean;
  deviceStatus: string;
  lastGatewayId: string | null;
  valveCommand?: ValveCommand | null;
}

/** A search result: a gateway when it has an imei (spec §2, Search Results). */
export type Device = Gateway | WaterMeter;
export const isGateway = (device: Device): device is Gateway =>
  'imei' in device && Boolean(device.imei);

export interface CriticalAlert {
  type: string;
  status: string;
  receivedAt: string;
  updatedAt: string;
}

export interface ConsumptionRecord {
  _id: RecordId;
  record: number;
  timestamp: string;
}

export interface GatewayActivity {
  _id?: RecordId;
  gatewayId: string;
  /** The gateway's name, unless it was deleted (not in the spec: docs/web.md, Device names). */
  gatewayName?: string | null;
  meterId?: string | null;
  meterName?: string | null;
  mqttTopic?: string | null;
  action: string;
  timestamp: string;
}

export interface BleActivity {
  gatewayId?: string;
  gatewayName?: string | null;
  meterId?: string;
  meterName?: string | null;
  rssi: number;
  timestamp: string;
}

export interface PeripheralDiscovery {
  deviceName: string | null;
  bleAddress: string;
  timestamp: string;
}

export type ShutdownStatus = 'requested' | 'confirmed' | 'rejected';

export interface ShutdownRequest {
  status: ShutdownStatus | null;
}

export interface Notification {
  seq?: number;
  id?: string;
  deviceName: string;
  deviceId?: string;
  deviceKind?: 'gateway' | 'meter';
  event: string;
  status: string;
  /** What happened, for wording in the user's language (`alert`, `shutdown-request`…). */
  kind?: string;
  /** The kind's parameters, e.g. `{ type: 'leak' }`. */
  params?: Record<string, string>;
  createdAt?: string;
}

export interface Count {
  count: number;
}

/** The device lists the CSV import and export hold (`/api/devices/{import,export}/{kind}`). */
export type DeviceCsvKind = 'gateways' | 'meters';

/** Query parameters of the paged lists (spec §7). */
export interface PageParams {
  max: number;
  start?: string;
  reverse?: boolean;
}
