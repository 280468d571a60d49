// A cluster: a disc sized by its count, coloured by its worst health, named
// for assistive tech; a click, Enter or Space zooms to its devices.
import type { LeafletKeyboardEvent } from 'leaflet';
import { useMemo } from 'react';
import { Marker, useMap } from 'react-leaflet';

import { MAP_FIT_PADDING_PX, MAP_MAX_ZOOM } from '../../../lib/constants.ts';
import { clusterRadius, cornersOf } from '../api/map-geometry.ts';
import type { HealthColour } from '../api/map-health.ts';
import type { MapCluster } from '../api/map-types.ts';
import { markerIcon } from './marker-icon.ts';
import { isActivation, nameMarker } from './marker-keys.ts';

interface Props {
  cluster: MapCluster;
  label: string;
  /** The count as drawn on the disc. */
  text: string;
  colour: HealthColour;
}

export function ClusterMarker({ cluster, label, text, colour }: Props) {
  const map = useMap();
  const size = 2 * clusterRadius(cluster.count);
  const icon = useMemo(() => markerIcon(size, colour, text), [size, colour, text]);
  // The same position from one view to the next: Leaflet does not move the marker again.
  const position = useMemo<[number, number]>(() => [cluster.lat, cluster.lon], [cluster.lat, cluster.lon]);
  const handlers = useMemo(() => {
    const zoomIn = () => {
      map.fitBounds(cornersOf(cluster.bbox), { padding: [MAP_FIT_PADDING_PX, MAP_FIT_PADDING_PX], maxZoom: MAP_MAX_ZOOM });
    };
    return {
      add: nameMarker(label),
      click: zoomIn,
      keydown: (event: LeafletKeyboardEvent) => {
        if (!isActivation(event.originalEvent)) return;
        event.originalEvent.preventDefault();
        zoomIn();
      },
    };
  }, [map, cluster.bbox, label]);
  return (
    <Marker position={position} icon={icon} title={label} keyboard eventHandlers={handlers} />
  );
}
