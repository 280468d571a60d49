// The view's clusters and devices as DOM markers. A marker is keyed by its
// name for assistive tech, so that a change of health or count redraws it
// with its new title.
import type { MapView } from '../api/map-types.ts';
import { useHealthColours } from '../hooks/use-health-colours.ts';
import { useMapWords } from '../hooks/use-map-words.ts';
import { ClusterMarker } from './cluster-marker.tsx';
import { DeviceMarker } from './device-marker.tsx';

export function DeviceLayer({ view }: { view: Pick<MapView, 'clusters' | 'markers'> }) {
  const words = useMapWords();
  const colours = useHealthColours();
  return (
    <>
      {view.clusters.map((cluster) => {
        const label = words.cluster(cluster);
        return (
          <ClusterMarker
            key={`${String(cluster.lon)},${String(cluster.lat)}:${label}`}
            cluster={cluster}
            label={label}
            text={words.count(cluster.count)}
            colour={colours[cluster.health]}
          />
        );
      })}
      {view.markers.map((marker) => {
        const label = words.marker(marker);
        return <DeviceMarker key={`${marker.kind}:${marker.id}:${label}`} marker={marker} label={label} colour={colours[marker.health]} />;
      })}
    </>
  );
}
