import { createTheme } from '@mui/material/styles';

import {
  BREAKPOINT_SIDE_NAV_MAX_PX,
  BREAKPOINT_SMALL_PX,
  BREAKPOINT_VERY_SMALL_PX,
} from '../lib/constants.ts';

// Breakpoints from spec §9: xs < 400 ≤ sm < 1000 ≤ md ≤ 1200 < lg.
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
  palette: {
    primary: { main: '#0b5cad' },
    secondary: { main: '#00838f' },
  },
});
