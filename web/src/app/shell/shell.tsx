// The signed-in layout (spec §2, Shell). Breakpoints from spec §9; see
// docs/web.md for how the navigation adapts. A lazy route of its own, so the
// sign-in page loads none of it.
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';

import { BREAKPOINT_SHORT_HEIGHT_PX } from '../../lib/constants.ts';
import { PageFallback } from '../page-fallback.tsx';
import { NavList } from './nav-list.tsx';
import { TopBar } from './top-bar.tsx';

const SIDE_NAV_WIDTH = 232;

export default function Shell() {
  const { t } = useTranslation();
  const theme = useTheme();
  const small = useMediaQuery(theme.breakpoints.down('md'));
  const veryNarrow = useMediaQuery(theme.breakpoints.down('sm'));
  const short = useMediaQuery(`(max-height: ${String(BREAKPOINT_SHORT_HEIGHT_PX - 0.05)}px)`);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <TopBar small={small} veryNarrow={veryNarrow} />
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        {small ? null : (
          <Paper component="aside" square variant="outlined" sx={{ width: SIDE_NAV_WIDTH, flexShrink: 0, borderTop: 0 }}>
            <NavList />
          </Paper>
        )}
        <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 1, sm: 2 } }}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
      {short ? null : (
        <Box component="footer" sx={{ p: 2, textAlign: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            {t('footer')}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
