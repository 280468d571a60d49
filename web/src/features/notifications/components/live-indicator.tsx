// The live/not-live sensor (spec §2, Shell): it reflects the state of the
// notification stream that the bell's list keeps open.
import SensorsIcon from '../../../components/icons/sensors';
import SensorsOffIcon from '../../../components/icons/sensors-off';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';

import { useNotifications } from '../hooks/use-notifications.ts';
import { useStreamState } from '../hooks/stream-status.ts';

export function LiveIndicator() {
  const { t } = useTranslation();
  const { userId } = useNotifications();
  const live = useStreamState(userId) === 'live';
  const label = live ? t('topBar.liveLabel') : t('topBar.notLiveLabel');
  return (
    <Tooltip title={label}>
      <Box
        component="span"
        role="img"
        aria-label={label}
        sx={{ display: 'inline-flex', color: live ? 'success.light' : 'inherit', opacity: live ? 1 : 0.6 }}
      >
        {live ? <SensorsIcon fontSize="small" /> : <SensorsOffIcon fontSize="small" />}
      </Box>
    </Tooltip>
  );
}
