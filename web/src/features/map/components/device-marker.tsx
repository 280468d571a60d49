// One gateway or meter: a small disc in its health's colour, named for
// assistive tech; a click, Enter or Space opens its popup. When the popup
// closes with the focus inside it, the focus goes back to the marker.
import type { LeafletKeyboardEvent, Marker as LeafletMarker, PopupEvent } from 'leaflet';
import { useMemo } from 'react';
import { Marker, Popup } from 'react-leaflet';

import { MAP_MARKER_RADIUS_PX } from '../../../lib/constants.ts';
import type { HealthColour } from '../api/map-health.ts';
import type { MapMarker } from '../api/map-types.ts';
import { DevicePopup } from './device-popup.tsx';
import { markerIcon } from './marker-icon.ts';
import { isActivation, nameMarker } from './marker-keys.ts';

interface Props {
  marker: MapMarker;
  label: string;
  colour: HealthColour;
}

/** Where the focus was when a popup closed: in it, or nowhere. */
function focusWasIn(popup: HTMLElement | undefined): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected || Boolean(popup?.contains(active));
}

export function DeviceMarker({ marker, label, colour }: Props) {
  const icon = useMemo(() => markerIcon(2 * MAP_MARKER_RADIUS_PX, colour), [colour]);
  // The same position from one view to the next: Leaflet does not move the marker again.
  const position = useMemo<[number, number]>(() => [marker.lat, marker.lon], [marker.lat, marker.lon]);
  const handlers = useMemo(
    () => ({
      add: nameMarker(label),
      // Leaflet's own Enter (on keypress) toggles the popup: the default
      // prevented here, no keypress follows.
      keydown: (event: LeafletKeyboardEvent) => {
        if (!isActivation(event.originalEvent)) return;
        event.originalEvent.preventDefault();
        (event.target as LeafletMarker).openPopup();
      },
      popupclose: (event: PopupEvent) => {
        if (focusWasIn(event.popup.getElement())) (event.target as LeafletMarker).getElement()?.focus();
      },
    }),
    [label],
  );
  return (
    <Marker position={position} icon={icon} title={label} keyboard eventHandlers={handlers}>
      <Popup>
        <DevicePopup marker={marker} colour={colour} />
      </Popup>
    </Marker>
  );
}
