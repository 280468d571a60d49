// Health colours from the MUI palette: success for healthy, warning for lost,
// grey for down, error for critical. A label on a colour is black or white,
// whichever contrasts more, so that counts keep AA contrast (4.5:1).
import { getContrastRatio, type Palette } from '@mui/material/styles';

import type { Health } from './map-types.ts';

export interface HealthColour {
  fill: string;
  text: string;
}

const BLACK = '#000000';
const WHITE = '#ffffff';

/** Black or white, whichever reads better on `background`. */
export function textOn(background: string): string {
  return getContrastRatio(WHITE, background) >= getContrastRatio(BLACK, background) ? WHITE : BLACK;
}

type HealthPalette = Pick<Palette, 'success' | 'warning' | 'error' | 'grey'>;

export function healthColours(palette: HealthPalette): Record<Health, HealthColour> {
  const fills: Record<Health, string> = {
    healthy: palette.success.main,
    lost: palette.warning.main,
    down: palette.grey[600],
    critical: palette.error.main,
  };
  const colour = (fill: string) => ({ fill, text: textOn(fill) });
  return {
    healthy: colour(fills.healthy),
    lost: colour(fills.lost),
    down: colour(fills.down),
    critical: colour(fills.critical),
  };
}
