// The Leaflet map: the configured tiles (none when the URL is empty; the
// plain background stays usable when tiles fail), the search's circles and
// the view's clusters and devices, with Leaflet's controls in the user's
// language. Leaflet's CSS is loaded here only.
import 'leaflet/dist/leaflet.css';

import GlobalStyles from '@mui/material/GlobalStyles';
import { alpha, emphasize, useTheme, type Theme } from '@mui/material/styles';
import type { Map as LeafletMap } from 'leaflet';
import type { Ref } from 'react';
import { AttributionControl, MapContainer, TileLayer, ZoomControl } from 'react-leaflet';

import { MAP_MAX_ZOOM, MAP_MIN_ZOOM, MAP_WORLD_CENTER, MAP_WORLD_ZOOM } from '../../../lib/constants.ts';
import type { FitTarget } from '../api/map-geometry.ts';
import type { DashboardSettings, MapView } from '../api/map-types.ts';
import type { MapSearchState } from '../hooks/use-map-search.ts';
import { useMapWords } from '../hooks/use-map-words.ts';
import { DeviceLayer } from './device-layer.tsx';
import { escapeHtml, MARKER_CLASS } from './marker-icon.ts';
import { SearchCircles } from './search-circles.tsx';
import { ViewController } from './view-controller.tsx';

interface Props {
  ref: Ref<LeafletMap>;
  tiles: DashboardSettings | undefined;
  view: MapView | undefined;
  search: MapSearchState | null;
  target: FitTarget | undefined;
  onView: (bbox: string | null) => void;
}

/**
 * A visible focus on the markers; attribution links told apart from their
 * text by more than colour; Leaflet's popups and controls (white in its own
 * CSS) in the theme's paper and text colours, so that they stay legible in
 * the dark theme. Each selector outweighs Leaflet's own.
 */
const mapStyles = ({ palette }: Theme) => {
  const paper = { backgroundColor: palette.background.paper, color: palette.text.primary };
  return {
    [`.${MARKER_CLASS}:focus-visible`]: { outline: `3px solid ${palette.primary.main}`, outlineOffset: 2, borderRadius: '50%' },
    '.leaflet-container .leaflet-control.leaflet-control-attribution': { ...paper, backgroundColor: alpha(palette.background.paper, 0.8) },
    '.leaflet-container .leaflet-control-attribution a': { textDecoration: 'underline', color: palette.primary.main },
    '.leaflet-container .leaflet-popup .leaflet-popup-content-wrapper, .leaflet-container .leaflet-popup .leaflet-popup-tip': paper,
    '.leaflet-container .leaflet-popup a.leaflet-popup-close-button': { color: palette.text.secondary },
    '.leaflet-container .leaflet-bar a': { ...paper, borderBottomColor: palette.divider },
    '.leaflet-container .leaflet-bar a:hover, .leaflet-container .leaflet-bar a:focus': { backgroundColor: emphasize(palette.background.paper, 0.08) },
    '.leaflet-container .leaflet-bar a.leaflet-disabled': { backgroundColor: palette.background.paper, color: palette.text.disabled },
  };
};

export function NetworkMap({ ref, tiles, view, search, target, onView }: Props) {
  const { t } = useMapWords();
  const { palette } = useTheme();
  const prefix = `<a href="https://leafletjs.com" title="${escapeHtml(t('controls.leaflet'))}">Leaflet</a>`;
  return (
    <>
      <GlobalStyles styles={mapStyles} />
      <MapContainer
        ref={ref}
        center={[MAP_WORLD_CENTER.lat, MAP_WORLD_CENTER.lon]}
        zoom={MAP_WORLD_ZOOM}
        minZoom={MAP_MIN_ZOOM}
        maxZoom={MAP_MAX_ZOOM}
        zoomControl={false}
        attributionControl={false}
        style={{ height: '100%', width: '100%', background: palette.mode === 'dark' ? palette.grey[900] : palette.grey[100] }}
      >
        <ZoomControl zoomInTitle={t('controls.zoomIn')} zoomOutTitle={t('controls.zoomOut')} />
        <AttributionControl prefix={prefix} />
        {tiles?.mapTilesUrl ? (
          // Leaflet writes the attribution as HTML: the configured text stays text.
          <TileLayer url={tiles.mapTilesUrl} attribution={escapeHtml(tiles.mapAttribution)} maxZoom={MAP_MAX_ZOOM} />
        ) : null}
        {/* A new search fits the map again. */}
        <ViewController key={search ? `${search.q}|${String(search.radius)}` : ''} target={target} onView={onView} />
        {search ? <SearchCircles places={search.places} radius={search.radius} /> : null}
        {view ? <DeviceLayer view={view} /> : null}
      </MapContainer>
    </>
  );
}
