import { createTheme, getContrastRatio } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';

import { healthColours, textOn } from './map-health.ts';
import { HEALTHS } from './map-types.ts';

describe('health colours', () => {
  const { palette } = createTheme();
  const colours = healthColours(palette);

  it("come from the theme: success, warning, grey and error", () => {
    expect(colours.healthy.fill).toBe(palette.success.main);
    expect(colours.lost.fill).toBe(palette.warning.main);
    expect(colours.down.fill).toBe(palette.grey[600]);
    expect(colours.critical.fill).toBe(palette.error.main);
    expect(new Set(HEALTHS.map((h) => colours[h].fill)).size).toBe(4);
  });

  it.each(HEALTHS)('keep AA contrast for a count on %s', (health) => {
    const { fill, text } = colours[health];
    expect(getContrastRatio(text, fill)).toBeGreaterThanOrEqual(4.5);
  });

  it('write in black or white, whichever reads better', () => {
    expect(textOn('#000000')).toBe('#ffffff');
    expect(textOn('#ffff00')).toBe('#000000');
  });
});
