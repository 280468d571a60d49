// The map's reads: the view of a bounding box, the network's extent, the tile
// settings, and the search whose radius the map draws (docs/map.md).
import { api } from '../../../lib/api.ts';
import { MAP_VIEW_KEEP_S } from '../../../lib/constants.ts';
import type { Device } from '../../../lib/types.ts';
import type { DashboardSettings, MapExtent, MapView } from './map-types.ts';

export interface MapSearch {
  q: string;
  /** Metres; 0 is OFF. */
  radius: number;
}

const mapApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The argument is the `bbox` parameter, `west,south,east,north` (`bboxParam`). */
    getMapView: build.query<MapView, string>({
      query: (bbox) => ({ url: 'api/map', params: { bbox } }),
      // A view is only worth keeping while the user pans back and forth.
      keepUnusedDataFor: MAP_VIEW_KEEP_S,
    }),
    getMapExtent: build.query<MapExtent, undefined>({
      query: () => 'api/map/extent',
    }),
    getDashboardSettings: build.query<DashboardSettings, undefined>({
      query: () => 'api/dashboard/settings',
    }),
    searchForMap: build.query<Device[], MapSearch>({
      query: ({ q, radius }) => ({ url: 'api/proxy/search', params: { q, radius } }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetMapViewQuery, useGetMapExtentQuery, useGetDashboardSettingsQuery, useSearchForMapQuery } = mapApi;
