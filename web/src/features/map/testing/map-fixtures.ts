// Answers of the map's endpoints (docs/map.md), for the map's tests.
import { delay, http, HttpResponse } from 'msw';

import type { Device } from '../../../lib/types.ts';
import type { DashboardSettings, MapCluster, MapExtent, MapMarker, MapView } from '../api/map-types.ts';

export const LYON: MapExtent = { bbox: [4.79, 45.74, 4.96, 45.86], devices: 28 };

export function cluster(overrides: Partial<MapCluster> = {}): MapCluster {
  return {
    lon: 4.8051,
    lat: 45.7551,
    count: 3,
    meters: 3,
    gateways: 0,
    health: 'critical',
    healthy: 2,
    lost: 0,
    down: 0,
    critical: 1,
    bbox: [4.805, 45.755, 4.8052, 45.7552],
    ...overrides,
  };
}

export function marker(overrides: Partial<MapMarker> = {}): MapMarker {
  return { id: '6b031854dbdeac91e41b633c', kind: 'meter', name: 'W-SM01000004', lon: 4.95, lat: 45.85, health: 'healthy', ...overrides };
}

export function mapView(overrides: Partial<MapView> = {}): MapView {
  return {
    level: 15,
    total: 68,
    countedAt: null,
    truncated: false,
    clusters: [cluster()],
    markers: [
      marker(),
      marker({ id: '6b031854dbdeac91e41b6334', kind: 'gateway', name: 'GTW-SG01000003', lon: 4.8177, lat: 45.76, health: 'lost' }),
    ],
    ...overrides,
  };
}

export const OSM: DashboardSettings = {
  mapTilesUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  mapAttribution: '© OpenStreetMap contributors',
};

interface Serve {
  extent?: MapExtent;
  /** The view of a `bbox` (null: a 400), or the views in the order asked for. */
  view?: MapView | ((bbox: string) => MapView | null);
  /** Milliseconds before the nth view is answered. */
  lag?: (nth: number) => number;
  settings?: DashboardSettings;
  search?: Device[];
}

/** Answers the map's reads; returns the `bbox` of every view asked for, and the search requests. */
export function serveMap({ extent = LYON, view = mapView(), settings = OSM, search = [], lag = () => 0 }: Serve = {}) {
  const views: string[] = [];
  const searches: URL[] = [];
  return {
    views,
    searches,
    handlers: [
      http.get('/api/map/extent', () => HttpResponse.json(extent)),
      http.get('/api/dashboard/settings', () => HttpResponse.json(settings)),
      http.get('/api/map', async ({ request }) => {
        const bbox = new URL(request.url).searchParams.get('bbox') ?? '';
        views.push(bbox);
        await delay(lag(views.length - 1));
        const answer = typeof view === 'function' ? view(bbox) : view;
        return answer
          ? HttpResponse.json(answer)
          : HttpResponse.json({ code: 'validation_failed', fields: { bbox: 'invalid' } }, { status: 400 });
      }),
      http.get('/api/proxy/search', ({ request }) => {
        searches.push(new URL(request.url));
        return HttpResponse.json(search);
      }),
    ],
  };
}
