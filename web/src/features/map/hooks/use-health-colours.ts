// The health colours of the app's theme (api/map-health.ts).
import { useTheme } from '@mui/material/styles';
import { useMemo } from 'react';

import { healthColours } from '../api/map-health.ts';

export function useHealthColours() {
  const { palette } = useTheme();
  return useMemo(() => healthColours(palette), [palette]);
}
