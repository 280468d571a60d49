// One notification: its device in bold, then 'event — status' (spec §2), worded
// in the user's language from the notification's kind and parameters; one
// from before kinds existed shows the server's English words.
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from 'react-i18next';

import type { Notification } from '../../../lib/types.ts';

interface Props {
  notification: Notification;
  onOpen: (notification: Notification) => void;
}

/** The notification's event and status in the user's language. */
export function useWords({ kind, params, event, status }: Notification): { event: string; status: string } {
  const { t, i18n } = useTranslation('notifications');
  const known = kind !== undefined && i18n.exists(`notifications:kinds.${kind}`);
  const type = params?.type ?? '';
  return {
    event: known ? t(`kinds.${kind}`, { type: t(`alertTypes.${type}`, { defaultValue: type }), defaultValue: event }) : event,
    status: t(`statuses.${status}`, { defaultValue: status }),
  };
}

export function NotificationItem({ notification, onOpen }: Props) {
  const { t } = useTranslation('notifications');
  const { deviceName } = notification;
  const { event, status } = useWords(notification);
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
