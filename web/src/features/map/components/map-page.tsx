// The Map screen (/map): gateways and meters clustered by the server, loaded
// by bounding box, coloured by health; opened on the network, or on a
// search's results with its radius drawn (`/map?q=…&radius=…`). docs/map.md.
import Box from '@mui/material/Box';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Map as LeafletMap } from 'leaflet';
import { useState } from 'react';

import { MAP_MIN_HEIGHT_PX } from '../../../lib/constants.ts';
import { useGetDashboardSettingsQuery, useGetMapViewQuery } from '../api/map-api.ts';
import { useFitTarget } from '../hooks/use-fit-target.ts';
import { useMapSearch } from '../hooks/use-map-search.ts';
import { fitTo } from './fit-to.ts';
import { MAP_TITLE_ID, MapPanel } from './map-panel.tsx';
import { NetworkMap } from './network-map.tsx';

export default function MapPage() {
  const [map, setMap] = useState<LeafletMap | null>(null);
  const [bbox, setBbox] = useState<string | null>(null);
  const search = useMapSearch();
  const { target, noPosition } = useFitTarget(search);
  // `data` stays the last view shown while the next one loads.
  const view = useGetMapViewQuery(bbox ?? skipToken);
  const settings = useGetDashboardSettingsQuery(undefined);
  const onFit =
    map && target
      ? () => {
          fitTo(map, target);
        }
      : undefined;
  return (
    <Box
      component="section"
      aria-labelledby={MAP_TITLE_ID}
      sx={{
        position: 'relative',
        height: { xs: 'calc(100dvh - 185px)', sm: 'calc(100dvh - 150px)' },
        minHeight: MAP_MIN_HEIGHT_PX,
      }}
    >
      <NetworkMap ref={setMap} tiles={settings.data} view={view.data} search={search} target={target} onView={setBbox} />
      <MapPanel view={view.data} failed={view.isError} noPosition={noPosition} search={search} onFit={onFit} />
    </Box>
  );
}
