// Shared by the cluster and device markers: their accessible name, and the
// keys that activate them (Leaflet gives them role="button").
import type { LeafletEvent, Marker } from 'leaflet';

/** An `add` handler that names the marker's element for assistive tech, beside its title. */
export const nameMarker = (label: string) => (event: LeafletEvent) => {
  (event.target as Marker).getElement()?.setAttribute('aria-label', label);
};

/** Enter or Space, as on any button. */
export const isActivation = (event: KeyboardEvent) => event.key === 'Enter' || event.key === ' ';
