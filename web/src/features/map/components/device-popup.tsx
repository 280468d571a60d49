// A device's popup: its name, kind and health in words, and a link to its
// page that stays in the app. It takes the focus when it opens; Escape or
// its close button closes it.
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { Link as RouterLink } from 'react-router';

import type { HealthColour } from '../api/map-health.ts';
import type { DeviceKind, MapMarker } from '../api/map-types.ts';
import { useMapWords } from '../hooks/use-map-words.ts';

const PAGES: Record<DeviceKind, string> = { meter: '/water-meters', gateway: '/gateways' };

export function DevicePopup({ marker, colour }: { marker: MapMarker; colour: HealthColour }) {
  const { t, health } = useMapWords();
  const map = useMap();
  const link = useRef<HTMLAnchorElement>(null);
  const closeLabel = t('popup.close');
  useEffect(() => {
    // Leaflet names its close button in English only.
    const close = link.current?.closest('.leaflet-popup')?.querySelector('.leaflet-popup-close-button');
    close?.setAttribute('aria-label', closeLabel);
    close?.setAttribute('title', closeLabel);
  }, [closeLabel]);
  useEffect(() => {
    link.current?.focus();
  }, []);
  return (
    <Box
      component="section"
      aria-label={marker.name}
      onKeyDown={(event) => {
        if (event.key === 'Escape') map.closePopup();
      }}
      sx={{ minWidth: 160, display: 'grid', gap: 0.5 }}
    >
      <Typography component="div" variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
        {marker.name}
      </Typography>
      <Typography component="div" variant="body2">
        {t(`kindTitles.${marker.kind}`)}
      </Typography>
      <Typography component="div" variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
        <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: colour.fill, flexShrink: 0 }} />
        {t('popup.health', { health: health(marker.health, marker.kind) })}
      </Typography>
      <Link component={RouterLink} to={`${PAGES[marker.kind]}/${encodeURIComponent(marker.id)}`} ref={link} sx={{ justifySelf: 'start' }}>
        {t('popup.open')}
      </Link>
    </Box>
  );
}
