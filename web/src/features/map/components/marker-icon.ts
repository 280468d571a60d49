// The DOM icon of a cluster or a device: a coloured disc, with a count on a
// cluster. DOM markers (not canvas) so that each one is focusable and has an
// accessible name; the server caps a view at 2,000 of them.
import { divIcon, type DivIcon } from 'leaflet';

import type { HealthColour } from '../api/map-health.ts';

export const MARKER_CLASS = 'wm-map-marker';

/** Text made safe to write where Leaflet expects HTML. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);

/** A disc `size` pixels across in the health's colour, holding `text` (hidden from assistive tech: the marker's title names it). */
export function markerIcon(size: number, colour: HealthColour, text = ''): DivIcon {
  const style = [
    'display:flex',
    'align-items:center',
    'justify-content:center',
    'box-sizing:border-box',
    'width:100%',
    'height:100%',
    'border-radius:50%',
    `background:${colour.fill}`,
    `color:${colour.text}`,
    'border:2px solid #fff',
    'box-shadow:0 0 0 1px rgba(0,0,0,0.6)',
    'font:600 12px/1 system-ui,sans-serif',
  ].join(';');
  return divIcon({
    html: `<span aria-hidden="true" style="${style}">${escapeHtml(text)}</span>`,
    className: MARKER_CLASS,
    iconSize: [size, size],
  });
}
