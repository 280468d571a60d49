// The signed-in user's notifications. The bell and the live indicator both
// use it with the same argument, so they share one cache entry and one stream.
import { skipToken } from '@reduxjs/toolkit/query/react';

import { useAppSelector } from '../../../lib/hooks.ts';
import { selectUserId } from '../../../lib/session.ts';
import type { Notification } from '../../../lib/types.ts';
import { useNotificationListQuery } from '../api/notifications-api.ts';

const NONE: Notification[] = [];

export function useNotifications() {
  const userId = useAppSelector(selectUserId);
  const { data } = useNotificationListQuery(userId ?? skipToken);
  return { userId, notifications: data ?? NONE };
}
