// The notification bell in the top bar (spec §2): a badge with the count
// (capped at 99+), a panel of the notifications fed live by the event stream.
// Opening a notification dismisses it and goes to its device (spec §4).
import NotificationsIcon from '../../../components/icons/notifications';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { badgeText } from '../../../lib/format.ts';
import type { Notification } from '../../../lib/types.ts';
import { useNotificationClearAllMutation, useNotificationDismissMutation } from '../api/notifications-api.ts';
import { useNotifications } from '../hooks/use-notifications.ts';
import { deviceRoute } from './device-route.ts';
import { NotificationPanel } from './notification-panel.tsx';

export function NotificationBell() {
  const { t } = useTranslation('notifications');
  const navigate = useNavigate();
  const { notifications } = useNotifications();
  const [dismiss] = useNotificationDismissMutation();
  const [clearAll] = useNotificationClearAllMutation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const count = notifications.length;
  const label = count === 0 ? t('bell.label') : t('bell.labelWithCount', { total: badgeText(count) });

  const close = () => {
    setAnchor(null);
  };
  const open = (n: Notification) => {
    close();
    void dismiss(n.deviceName);
    void navigate(deviceRoute(n));
  };
  const onClearAll = () => {
    void clearAll(undefined);
  };

  return (
    <>
      <Tooltip title={t('bell.label')}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor !== null}
          onClick={(e) => {
            setAnchor(e.currentTarget);
          }}
        >
          <Badge badgeContent={badgeText(count)} color="error" invisible={count === 0}>
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <NotificationPanel
        anchor={anchor}
        notifications={notifications}
        onClose={close}
        onOpen={open}
        onClearAll={onClearAll}
      />
    </>
  );
}
