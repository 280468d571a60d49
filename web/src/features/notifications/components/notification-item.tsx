// One notification: its device in bold, then 'event — status'. Text only.
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';

import type { Notification } from '../../../lib/types.ts';

interface Props {
  notification: Notification;
  onOpen: (notification: Notification) => void;
}

export function NotificationItem({ notification, onOpen }: Props) {
  const { t } = useTranslation('notifications');
  const { deviceName, event, status } = notification;
  return (
    <ListItem disablePadding>
      <ListItemButton
        onClick={() => {
          onOpen(notification);
        }}
      >
        <ListItemText
          primary={deviceName}
          secondary={t('item.summary', { event, status })}
          slotProps={{
            primary: { sx: { fontWeight: 700, overflowWrap: 'anywhere' } },
            secondary: { sx: { overflowWrap: 'anywhere' } },
          }}
        />
      </ListItemButton>
    </ListItem>
  );
}
