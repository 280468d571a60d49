// The panel over the map: its title, the status line (a polite live region:
// devices in view, when they were counted, whether the view is cut, what
// the search found), the legend, and a button back to the opening view.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

import type { MapView } from '../api/map-types.ts';
import type { MapSearchState } from '../hooks/use-map-search.ts';
import { useMapWords } from '../hooks/use-map-words.ts';
import { MapLegend } from './map-legend.tsx';

export const MAP_TITLE_ID = 'map-title';

interface Props {
  view: MapView | undefined;
  /** The last request for the view failed. */
  failed: boolean;
  noPosition: boolean;
  search: MapSearchState | null;
  /** Back to the opening view; absent until the map is ready. */
  onFit: (() => void) | undefined;
}

export function MapPanel({ view, failed, noPosition, search, onFit }: Props) {
  const words = useMapWords();
  const { t } = words;
  const lines = [
    ...(view ? words.status(view) : [t(failed ? 'status.failed' : 'status.loading')]),
    ...(view && failed ? [t('status.failed')] : []),
    ...(noPosition ? [t('status.noPosition')] : []),
    ...(search ? words.search(search) : []),
  ];
  return (
    <Paper
      elevation={3}
      sx={{
        // Bottom left, where popups (which open above their marker) and
        // Leaflet's controls (zoom top left, attribution bottom right) are not.
        position: 'absolute',
        left: 8,
        bottom: 28,
        zIndex: 1000,
        p: 1.5,
        maxWidth: { xs: 'calc(100% - 16px)', sm: 320 },
        display: 'grid',
        gap: 1,
      }}
    >
      <Typography id={MAP_TITLE_ID} variant="subtitle1" component="h1" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
        {t('title')}
      </Typography>
      <Box role="status" aria-live="polite">
        {lines.map((line) => (
          <Typography key={line} variant="body2" component="p">
            {line}
          </Typography>
        ))}
      </Box>
      <MapLegend />
      {onFit ? (
        <Button size="small" variant="outlined" onClick={onFit} sx={{ justifySelf: 'start' }}>
          {t(search?.bbox ? 'fit.search' : 'fit.network')}
        </Button>
      ) : null}
    </Paper>
  );
}
