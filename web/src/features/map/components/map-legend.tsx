// The legend: each health's colour and name, as a list.
import Box from '@mui/material/Box';

import { HEALTHS } from '../api/map-types.ts';
import { useHealthColours } from '../hooks/use-health-colours.ts';
import { useMapWords } from '../hooks/use-map-words.ts';

export function MapLegend() {
  const { t } = useMapWords();
  const colours = useHealthColours();
  return (
    <Box
      component="ul"
      aria-label={t('legend.label')}
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', columnGap: 1.5, rowGap: 0.5, typography: 'body2' }}
    >
      {[...HEALTHS].reverse().map((health) => (
        <Box component="li" key={health} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <Box
            component="span"
            aria-hidden
            sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: colours[health].fill, boxShadow: (theme) => `0 0 0 1px ${theme.palette.text.secondary}` }}
          />
          {t(`legend.${health}`)}
        </Box>
      ))}
    </Box>
  );
}
