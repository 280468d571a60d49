// Moves a map to a fit target: a box with padding (never closer than the fit
// zoom), or the world.
import type { Map as LeafletMap } from 'leaflet';

import {
  MAP_FIT_MAX_ZOOM,
  MAP_FIT_PADDING_PX,
  MAP_WORLD_CENTER,
  MAP_WORLD_ZOOM,
} from '../../../lib/constants.ts';
import { cornersOf, type Bounds, type FitTarget } from '../api/map-geometry.ts';

export function fitTo(map: LeafletMap, target: FitTarget): void {
  if (target.kind === 'world') {
    map.setView([MAP_WORLD_CENTER.lat, MAP_WORLD_CENTER.lon], MAP_WORLD_ZOOM, { animate: false });
    return;
  }
  map.fitBounds(cornersOf(target.bbox), {
    padding: [MAP_FIT_PADDING_PX, MAP_FIT_PADDING_PX],
    maxZoom: MAP_FIT_MAX_ZOOM,
    animate: false,
  });
}

/** The map's visible bounds. */
export function boundsOf(map: LeafletMap): Bounds {
  const bounds = map.getBounds();
  return { west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth() };
}
