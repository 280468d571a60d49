// The shell's count of active alarms (raised, not yet acknowledged): a button
// to the Alarms screen filtered to them. It follows `alarm` hints live.
import NotificationImportantIcon from '../../../components/icons/notification-important';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { badgeText } from '../../../lib/format.ts';
import { useAlarmCountsQuery } from '../api/alarms-api.ts';

export function AlarmCountButton() {
  const { t } = useTranslation('alarms');
  const { data } = useAlarmCountsQuery(undefined);
  const active = data?.active ?? 0;
  const label = active ? t('shell.count', { count: active }) : t('shell.none');
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" component={Link} to="/alarms?status=active" aria-label={label} data-testid="alarm-count">
        <Badge badgeContent={active ? badgeText(active) : 0} color="error">
          <NotificationImportantIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
