// The search's radius, drawn around each place it was searched at. The
// circles let clicks through to the markers under them.
import { useTheme } from '@mui/material/styles';
import { Circle } from 'react-leaflet';

import type { Place } from '../api/map-geometry.ts';

export function SearchCircles({ places, radius }: { places: readonly Place[]; radius: number }) {
  const { palette } = useTheme();
  if (radius <= 0) return null;
  const pathOptions = { color: palette.primary.main, weight: 2, fillOpacity: 0.08 };
  return places.map((place) => (
    <Circle
      key={`${String(place.lon)},${String(place.lat)}`}
      center={[place.lat, place.lon]}
      radius={radius}
      interactive={false}
      pathOptions={pathOptions}
    />
  ));
}
