import { describe, expect, it } from 'vitest';

import { MAP_CLUSTER_RADIUS_PX } from '../../../lib/constants.ts';
import {
  bboxParam,
  clusterRadius,
  cornersOf,
  extentTarget,
  openingTarget,
  placesBbox,
  searchOf,
  searchPlaces,
} from './map-geometry.ts';
import type { Bbox } from './map-types.ts';

describe('the bbox asked for', () => {
  it('is west,south,east,north to six decimals', () => {
    expect(bboxParam({ west: 4.7031784, south: 45.7162481, east: 5.0465, north: 45.8837951 })).toBe(
      '4.703178,45.716248,5.0465,45.883795',
    );
  });

  it('is clamped to the world the server accepts: ±180, ±85', () => {
    expect(bboxParam({ west: -270.5, south: -89, east: 300, north: 88.2 })).toBe('-180,-85,180,85');
  });

  it('is cut at the antimeridian rather than crossing it', () => {
    expect(bboxParam({ west: 170, south: 10, east: 190, north: 20 })).toBe('170,10,180,20');
    expect(bboxParam({ west: -190, south: 10, east: -170, north: 20 })).toBe('-180,10,-170,20');
  });

  it('is nothing for a view of no width or height, or wholly off the world', () => {
    expect(bboxParam({ west: 4, south: 45, east: 4, north: 46 })).toBeNull();
    expect(bboxParam({ west: 4, south: 46, east: 5, north: 46 })).toBeNull();
    expect(bboxParam({ west: 181, south: 10, east: 200, north: 20 })).toBeNull();
    expect(bboxParam({ west: Number.NaN, south: 10, east: 20, north: 20 })).toBeNull();
  });
});

describe('the view the map opens on', () => {
  it("is the network's extent, or the world when no device has a position", () => {
    expect(extentTarget({ bbox: [4.79, 45.74, 4.96, 45.86], devices: 28 })).toEqual({ kind: 'bbox', bbox: [4.79, 45.74, 4.96, 45.86] });
    expect(extentTarget({ bbox: null, devices: 0 })).toEqual({ kind: 'world' });
    expect(extentTarget(undefined)).toEqual({ kind: 'world' });
  });

  it("is the search's places when it found some, once it has answered", () => {
    const lyon: Bbox = [4.79, 45.74, 4.96, 45.86];
    const extent = { known: true, data: { bbox: lyon, devices: 28 } };
    const places: Bbox = [4.8, 45.7, 4.9, 45.8];
    expect(openingTarget({ settled: true, bbox: places }, extent)).toEqual({ kind: 'bbox', bbox: places });
    expect(openingTarget({ settled: false, bbox: null }, extent)).toBeUndefined();
    expect(openingTarget({ settled: true, bbox: null }, extent)).toEqual({ kind: 'bbox', bbox: lyon });
    expect(openingTarget(null, extent)).toEqual({ kind: 'bbox', bbox: lyon });
  });

  it('waits for the extent, and shows the world when it cannot be read', () => {
    expect(openingTarget(null, { known: false, data: undefined })).toBeUndefined();
    expect(openingTarget(null, { known: true, data: undefined })).toEqual({ kind: 'world' });
  });

  it("gives Leaflet its corners as [[south, west], [north, east]]", () => {
    expect(cornersOf([4.79, 45.74, 4.96, 45.86])).toEqual([
      [45.74, 4.79],
      [45.86, 4.96],
    ]);
  });
});

describe('a search on the map', () => {
  it('is read from ?q= and ?radius=, the radius OFF when missing or not a positive number', () => {
    expect(searchOf(new URLSearchParams('q=%20SM01%20&radius=150'))).toEqual({ q: 'SM01', radius: 150 });
    expect(searchOf(new URLSearchParams('q=SM01'))).toEqual({ q: 'SM01', radius: 0 });
    expect(searchOf(new URLSearchParams('q=SM01&radius=-5'))).toEqual({ q: 'SM01', radius: 0 });
    expect(searchOf(new URLSearchParams('q=SM01&radius=wide'))).toEqual({ q: 'SM01', radius: 0 });
    expect(searchOf(new URLSearchParams('q=%20&radius=150'))).toBeNull();
    expect(searchOf(new URLSearchParams(''))).toBeNull();
  });

  it('draws around each result with a position, or around the point searched for', () => {
    const results = [{ gpsCoordinates: [4.8, 45.7] }, { gpsCoordinates: null }, { gpsCoordinates: '4.9,45.8' }, { gpsCoordinates: [200, 0] }];
    expect(searchPlaces('SM01', results)).toEqual([
      { lon: 4.8, lat: 45.7 },
      { lon: 4.9, lat: 45.8 },
    ]);
    expect(searchPlaces(' 4.85,45.75 ', results)).toEqual([{ lon: 4.85, lat: 45.75 }]);
    expect(searchPlaces('SM01', [])).toEqual([]);
  });

  it('fits to the circles around its places', () => {
    const [west = 0, south = 0, east = 0, north = 0] = placesBbox([{ lon: 4.8, lat: 45.7 }, { lon: 4.9, lat: 45.8 }], 1113.2) ?? [];
    expect(south).toBeCloseTo(45.69, 6);
    expect(north).toBeCloseTo(45.81, 6);
    // A degree of longitude is shorter away from the equator.
    expect(4.8 - west).toBeGreaterThan(0.01);
    expect(east - 4.9).toBeCloseTo(0.01 / Math.cos((45.8 * Math.PI) / 180), 6);
    expect(placesBbox([{ lon: 4.8, lat: 45.7 }], 0)).toEqual([4.8, 45.7, 4.8, 45.7]);
    expect(placesBbox([], 150)).toBeNull();
  });
});

describe('a cluster', () => {
  it('grows with the log of its count, within bounds', () => {
    const { min, max } = MAP_CLUSTER_RADIUS_PX;
    const radii = [2, 10, 100, 1_000, 10_000, 100_000].map(clusterRadius);
    expect(radii).toEqual([...radii].sort((a, b) => a - b));
    expect(new Set(radii).size).toBe(radii.length);
    expect(clusterRadius(2)).toBeGreaterThanOrEqual(min);
    expect(clusterRadius(100_000)).toBe(max);
    expect(clusterRadius(10_000_000)).toBe(max);
  });
});
