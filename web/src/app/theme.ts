import { createTheme } from '@mui/material/styles';

import {
  BREAKPOINT_SIDE_NAV_MAX_PX,
  BREAKPOINT_SMALL_PX,
  BREAKPOINT_VERY_SMALL_PX,
} from '../lib/constants.ts';

// Breakpoints from spec §9: xs < 400 ≤ sm < 1000 ≤ md ≤ 1200 < lg.
// A light and a dark scheme (the user's theme choice picks one, lib/theme-choice.ts):
// the dark one lightens the brand colours so that they keep 4.5:1 on its background.
export const theme = createTheme({
  breakpoints: {
    values: {
      xs: 0,
      sm: BREAKPOINT_VERY_SMALL_PX,
      md: BREAKPOINT_SMALL_PX,
      lg: BREAKPOINT_SIDE_NAV_MAX_PX + 1,
      xl: 1536,
    },
  },
  typography: {
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  },
  colorSchemes: {
    light: {
      palette: {
        primary: { main: '#0b5cad' },
        secondary: { main: '#00838f' },
      },
    },
    dark: {
      palette: {
        primary: { main: '#6ea8e8' },
        secondary: { main: '#4fc3cf' },
      },
    },
  },
  components: {
    // The dark scheme's error red is too light under a badge's white count.
    MuiBadge: {
      styleOverrides: {
        colorError: ({ theme }) => theme.applyStyles('dark', { backgroundColor: theme.palette.error.dark }),
      },
    },
  },
});
