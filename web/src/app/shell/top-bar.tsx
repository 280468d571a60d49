// The top bar (spec §2, Shell): menu (small screens), logo, uptime (desktop),
// search box, active alarms, live indicator, notification bell, language,
// theme, user (a link to the profile), logout.
import LogoutIcon from '../../components/icons/logout';
import TranslateIcon from '../../components/icons/translate';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MuiLink from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { AlarmCountButton } from '../../features/alarms/components/alarm-count-button.tsx';
import { ThemeMenuButton } from '../../features/auth/components/theme-menu-button.tsx';
import { useLanguageSwitch } from '../../features/auth/hooks/use-language-switch.ts';
import { useLogout } from '../../features/auth/hooks/use-logout.ts';
import { LiveIndicator } from '../../features/notifications/components/live-indicator.tsx';
import { NotificationBell } from '../../features/notifications/components/notification-bell.tsx';
import { SearchBox } from '../../features/search/components/search-box.tsx';
import { useAppSelector } from '../../lib/hooks.ts';
import { selectUsername } from '../../lib/session.ts';
import { NavMenu } from './nav-menu.tsx';
import { UptimeCaption } from './uptime-caption.tsx';

interface Props {
  small: boolean;
  veryNarrow: boolean;
}

export function TopBar({ small, veryNarrow }: Props) {
  const { t } = useTranslation();
  const username = useAppSelector(selectUsername);
  const logout = useLogout();
  const onLogout = () => void logout();
  const switchLanguage = useLanguageSwitch();
  const onSwitch = () => void switchLanguage();
  return (
    <AppBar position="sticky" component="header">
      <Toolbar sx={{ gap: 1, flexWrap: small ? 'wrap' : 'nowrap', py: small ? 1 : 0 }}>
        {small ? <NavMenu veryNarrow={veryNarrow} onSwitchLanguage={onSwitch} onLogout={onLogout} /> : null}
        <Typography
          variant="h6"
          component={Link}
          to="/"
          sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, mr: 1 }}
        >
          {t('productName')}
        </Typography>
        {small ? null : <UptimeCaption />}
        <Box sx={{ flex: 1, display: 'flex', justifyContent: 'center', minWidth: 0, order: small ? 10 : 0, flexBasis: small ? '100%' : 'auto' }}>
          <SearchBox />
        </Box>
        <AlarmCountButton />
        <LiveIndicator />
        <NotificationBell />
        {veryNarrow ? null : (
          <>
            <Tooltip title={t('topBar.switchLanguage')}>
              <IconButton color="inherit" aria-label={t('topBar.switchLanguage')} onClick={onSwitch}>
                <TranslateIcon />
              </IconButton>
            </Tooltip>
            <ThemeMenuButton />
            {/* The user's name leads to their profile (and password change). */}
            <Tooltip title={t('topBar.profile')} describeChild>
              <MuiLink
                component={Link}
                to="/profile"
                color="inherit"
                underline="hover"
                variant="body2"
                sx={{ whiteSpace: 'nowrap' }}
                data-testid="username"
              >
                {username ?? t('topBar.userFallback')}
              </MuiLink>
            </Tooltip>
            <Tooltip title={t('topBar.logout')}>
              <IconButton color="inherit" aria-label={t('topBar.logout')} onClick={onLogout}>
                <LogoutIcon />
              </IconButton>
            </Tooltip>
          </>
        )}
      </Toolbar>
    </AppBar>
  );
}
