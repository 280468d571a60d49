// The search the map was opened with (`/map?q=…&radius=…`): its results, the
// places its radius is drawn around, and the box that shows them all.
import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { useSearchForMapQuery } from '../api/map-api.ts';
import { placesBbox, searchOf, searchPlaces, type Place } from '../api/map-geometry.ts';
import type { Bbox } from '../api/map-types.ts';

export interface MapSearchState {
  q: string;
  radius: number;
  /** Null while the search runs. */
  results: number | null;
  failed: boolean;
  places: Place[];
  /** What to fit to; null when no place is known (yet). */
  bbox: Bbox | null;
  /** The search has answered, or failed. */
  settled: boolean;
}

export function useMapSearch(): MapSearchState | null {
  const [params] = useSearchParams();
  const search = useMemo(() => searchOf(params), [params]);
  const { data, isError } = useSearchForMapQuery(search ?? skipToken);
  return useMemo(() => {
    if (!search) return null;
    const places = searchPlaces(search.q, data ?? []);
    return {
      ...search,
      results: data ? data.length : null,
      failed: isError,
      places,
      bbox: placesBbox(places, search.radius),
      settled: data !== undefined || isError,
    };
  }, [search, data, isError]);
}
