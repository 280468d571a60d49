// The map's server answers (docs/map.md, The API) and the tile settings.

/** Worst first: a cluster's health is the worst of its devices'. */
export const HEALTHS = ['critical', 'down', 'lost', 'healthy'] as const;
export type Health = (typeof HEALTHS)[number];

export type DeviceKind = 'meter' | 'gateway';

/** `[west, south, east, north]` in degrees. */
export type Bbox = readonly [west: number, south: number, east: number, north: number];

export interface MapCluster {
  lon: number;
  lat: number;
  count: number;
  meters: number;
  gateways: number;
  health: Health;
  healthy: number;
  lost: number;
  down: number;
  critical: number;
  bbox: Bbox;
}

export interface MapMarker {
  id: string;
  kind: DeviceKind;
  name: string;
  lon: number;
  lat: number;
  health: Health;
}

/** `GET /api/map?bbox=`: at most 2,000 clusters and markers. */
export interface MapView {
  level: number;
  total: number;
  countedAt: string | null;
  truncated: boolean;
  clusters: MapCluster[];
  markers: MapMarker[];
}

/** `GET /api/map/extent`: where the network is, null before any device has a position. */
export interface MapExtent {
  bbox: Bbox | null;
  devices: number;
}

/** `GET /api/dashboard/settings`: an empty `mapTilesUrl` means no tile layer. */
export interface DashboardSettings {
  mapTilesUrl: string;
  mapAttribution: string;
}
