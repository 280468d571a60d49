// Pure geometry of the map: the bounding box asked for, the view it opens on,
// and what a search with a radius draws. No Leaflet here, so it is unit-tested.
import { MAP_CLUSTER_RADIUS_PX, MAP_LAT_LIMIT, MAP_LON_LIMIT } from '../../../lib/constants.ts';
import { parseGps, roundGps } from '../../../lib/validation.ts';
import type { Bbox, MapExtent } from './map-types.ts';

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

const clamp = (value: number, limit: number) => Math.min(limit, Math.max(-limit, value));

/**
 * The `bbox` parameter of `GET /api/map` for a view: clamped to the world the
 * server accepts (a view wrapped past the antimeridian is cut there), rounded
 * to six decimals. Null when nothing is left (a view of no width).
 */
export function bboxParam({ west, south, east, north }: Bounds): string | null {
  const box = [
    clamp(west, MAP_LON_LIMIT),
    clamp(south, MAP_LAT_LIMIT),
    clamp(east, MAP_LON_LIMIT),
    clamp(north, MAP_LAT_LIMIT),
  ].map(roundGps);
  const [w = 0, s = 0, e = 0, n = 0] = box;
  if (!box.every(Number.isFinite) || w >= e || s >= n) return null;
  return box.map(String).join(',');
}

/** Leaflet's corners, `[[south, west], [north, east]]`. */
export type Corners = [[number, number], [number, number]];

export function cornersOf([west, south, east, north]: Bbox): Corners {
  return [
    [south, west],
    [north, east],
  ];
}

/** What the map fits to on open: a bounding box, or the whole world. */
export type FitTarget = { kind: 'bbox'; bbox: Bbox } | { kind: 'world' };

/** The network's extent, or the world when no device has a position yet. */
export function extentTarget(extent: MapExtent | undefined): FitTarget {
  return extent?.bbox ? { kind: 'bbox', bbox: extent.bbox } : { kind: 'world' };
}

/**
 * What the map opens on: the search's places when it was opened from a
 * search that found some, otherwise the network's extent. Undefined until
 * known: while the search runs, or before the extent is read (or has failed,
 * when the world is shown).
 */
export function openingTarget(
  search: { settled: boolean; bbox: Bbox | null } | null,
  extent: { known: boolean; data: MapExtent | undefined },
): FitTarget | undefined {
  if (search && !search.settled) return undefined;
  if (search?.bbox) return { kind: 'bbox', bbox: search.bbox };
  return extent.known ? extentTarget(extent.data) : undefined;
}

/** A point of the map, in degrees. */
export interface Place {
  lon: number;
  lat: number;
}

/**
 * The centres of the search's circles: the point searched for when the term
 * is itself `lon,lat`, otherwise every result that has a position.
 */
export function searchPlaces(q: string, results: readonly { gpsCoordinates: unknown }[]): Place[] {
  const point = parseGps(q.trim());
  if (point.ok) return [{ lon: point.value[0], lat: point.value[1] }];
  return results.flatMap(({ gpsCoordinates }) => {
    if (typeof gpsCoordinates !== 'string' && !Array.isArray(gpsCoordinates)) return [];
    const gps = parseGps(gpsCoordinates as string | readonly unknown[]);
    return gps.ok ? [{ lon: gps.value[0], lat: gps.value[1] }] : [];
  });
}

/** Metres in a degree of latitude (and of longitude at the equator). */
const METRES_PER_DEGREE = 111_320;

/** The box around circles of `radius` metres at each place; null without places. */
export function placesBbox(places: readonly Place[], radius: number): Bbox | null {
  if (places.length === 0) return null;
  const dLat = radius / METRES_PER_DEGREE;
  const dLon = ({ lat }: Place) => radius / (METRES_PER_DEGREE * Math.max(Math.cos((lat * Math.PI) / 180), 0.01));
  const west = Math.min(...places.map((p) => p.lon - dLon(p)));
  const east = Math.max(...places.map((p) => p.lon + dLon(p)));
  const south = Math.min(...places.map((p) => p.lat)) - dLat;
  const north = Math.max(...places.map((p) => p.lat)) + dLat;
  return [clamp(west, MAP_LON_LIMIT), clamp(south, 90), clamp(east, MAP_LON_LIMIT), clamp(north, 90)];
}

/**
 * A cluster's radius in pixels, growing with the log of its count from the
 * minimum (2 devices) to the maximum (100,000 and more).
 */
export function clusterRadius(count: number): number {
  const { min, max } = MAP_CLUSTER_RADIUS_PX;
  const share = Math.log10(Math.max(count, 1)) / 5;
  return Math.round(min + (max - min) * Math.min(1, share));
}

/** The search the map was opened with: `?q=…&radius=…` (metres, 0 or missing is OFF). */
export function searchOf(params: URLSearchParams): { q: string; radius: number } | null {
  const q = params.get('q')?.trim() ?? '';
  if (!q) return null;
  const radius = Number(params.get('radius') ?? '0');
  return { q, radius: Number.isFinite(radius) && radius > 0 ? Math.round(radius) : 0 };
}
