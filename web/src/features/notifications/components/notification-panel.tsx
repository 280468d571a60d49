// The bell's panel (spec §2): the notifications, newest first, or
// 'No notifications'; 'Clear All' when there are some.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import Popover from '@mui/material/Popover';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { Notification } from '../../../lib/types.ts';
import { NotificationItem } from './notification-item.tsx';

interface Props {
  anchor: HTMLElement | null;
  notifications: readonly Notification[];
  onClose: () => void;
  onOpen: (notification: Notification) => void;
  onClearAll: () => void;
}

const keyOf = (n: Notification, index: number) => String(n.seq ?? n.id ?? `${n.deviceName}-${String(index)}`);

export function NotificationPanel({ anchor, notifications, onClose, onOpen, onClearAll }: Props) {
  const { t } = useTranslation('notifications');
  const titleId = useId();
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': titleId,
          sx: { width: 360, maxWidth: 'calc(100vw - 16px)', maxHeight: '70vh', display: 'flex', flexDirection: 'column' },
        },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1 }}>
        <Typography id={titleId} component="h2" variant="subtitle1" sx={{ flex: 1, fontWeight: 700 }}>
          {t('panel.title')}
        </Typography>
        {notifications.length > 0 ? (
          <Button size="small" onClick={onClearAll}>
            {t('panel.clearAll')}
          </Button>
        ) : null}
      </Box>
      <Divider />
      {notifications.length === 0 ? (
        <Typography sx={{ px: 2, py: 2 }} color="text.secondary">
          {t('panel.empty')}
        </Typography>
      ) : (
        <List dense sx={{ overflowY: 'auto' }}>
          {notifications.map((n, index) => (
            <NotificationItem key={keyOf(n, index)} notification={n} onOpen={onOpen} />
          ))}
        </List>
      )}
    </Popover>
  );
}
