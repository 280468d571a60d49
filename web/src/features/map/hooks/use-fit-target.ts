// What the map opens on (`openingTarget`), from the search and the network's
// extent.
import { useMemo } from 'react';

import { useGetMapExtentQuery } from '../api/map-api.ts';
import { openingTarget, type FitTarget } from '../api/map-geometry.ts';
import type { MapSearchState } from './use-map-search.ts';

export interface FitChoice {
  /** Undefined until known. */
  target: FitTarget | undefined;
  /** The network has no device with a position yet. */
  noPosition: boolean;
}

export function useFitTarget(search: MapSearchState | null): FitChoice {
  const extent = useGetMapExtentQuery(undefined);
  const known = extent.data !== undefined || extent.isError;
  return useMemo(
    () => ({ target: openingTarget(search, { known, data: extent.data }), noPosition: extent.data?.bbox === null }),
    [search, known, extent.data],
  );
}
