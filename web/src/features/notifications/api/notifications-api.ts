// Notifications (spec §2 Notification bell, §4, §7): the list, fed live by the
// event stream, and the optimistic dismiss and clear-all. The stream's change
// hints refetch whatever open page shows the devices that changed.
import type { TypedMutationOnQueryStarted } from '@reduxjs/toolkit/query/react';

import { api, baseQueryWithReauth, isCancelled } from '../../../lib/api.ts';
import type { SharedState } from '../../../lib/hooks.ts';
import { selectToken, selectUserId } from '../../../lib/session.ts';
import { openEventStream } from '../../../lib/sse.ts';
import type { Notification } from '../../../lib/types.ts';
import { streamReporter } from '../hooks/stream-status.ts';
import { networkRefresher, parseHint, tagsFor } from './hints.ts';
import { lastSeq, parseNotification, prepend, removeWhere, restore } from './notification-cache.ts';

const STREAM_PATH = '/api/notifications';

type OnQueryStarted<Arg> = NonNullable<TypedMutationOnQueryStarted<null, Arg, typeof baseQueryWithReauth, 'api'>>;

export const notificationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The caller's notifications, newest first; the argument is the session's userId. */
    notificationList: build.query<Notification[], string>({
      query: (userId) => `api/notifications/${encodeURIComponent(userId)}`,
      async onCacheEntryAdded(userId, lifecycle) {
        const { cacheDataLoaded, cacheEntryRemoved, dispatch } = lifecycle;
        const closing = new AbortController();
        const status = streamReporter(userId);
        const networkTags = networkRefresher();
        try {
          const { data } = await cacheDataLoaded;
          // Resume after the newest listed: nothing created since the list is missed.
          void openEventStream({
            url: new URL(STREAM_PATH, window.location.href).href,
            lastEventId: String(lastSeq(data)),
            getToken: () => selectToken(lifecycle.getState() as unknown as SharedState),
            refreshToken: async () => {
              // Signed out meanwhile: there is nothing to refresh, the stream stops.
              if (selectToken(lifecycle.getState() as unknown as SharedState) === null) return null;
              const refresh = dispatch(api.endpoints.refreshToken.initiate(undefined));
              try {
                return await refresh.unwrap();
              } catch {
                return null;
              } finally {
                refresh.reset();
              }
            },
            onMessage: (message) => {
              if (message.event === 'hint') {
                const hint = parseHint(message.data);
                if (hint) dispatch(api.util.invalidateTags([...tagsFor(hint), ...networkTags(hint, Date.now())]));
                return;
              }
              const n = parseNotification(message.data);
              if (n) lifecycle.updateCachedData((list) => { prepend(list, n); });
            },
            onStateChange: status.report,
            signal: closing.signal,
          }).catch((error: unknown) => {
            console.warn('notification stream failed', error);
          });
        } catch {
          // The entry went away before its first load: no stream.
        }
        await cacheEntryRemoved;
        closing.abort();
        status.release();
      },
    }),
    /** Removes the caller's notifications about one device. */
    notificationDismiss: build.mutation<null, string>({
      query: (deviceName) => ({ url: `api/notifications/${encodeURIComponent(deviceName)}`, method: 'DELETE' }),
      onQueryStarted: optimistically((deviceName: string) => (n) => n.deviceName === deviceName),
    }),
    /** Removes all of the caller's notifications. */
    notificationClearAll: build.mutation<null, undefined>({
      query: () => ({ url: 'api/notifications/user', method: 'DELETE' }),
      onQueryStarted: optimistically(() => () => true),
    }),
  }),
});

/**
 * Removes what the mutation removes from the cached list at once, and puts it
 * back if the request fails (a cancelled one is ignored, spec §7).
 */
function optimistically<Arg>(removes: (arg: Arg) => (n: Notification) => boolean): OnQueryStarted<Arg> {
  return async (arg, lifecycle) => {
    const { dispatch, queryFulfilled } = lifecycle;
    const userId = selectUserId(lifecycle.getState() as unknown as SharedState);
    if (userId === null) return;
    const update = notificationsApi.util.updateQueryData;
    let removed: Notification[] = [];
    dispatch(update('notificationList', userId, (list) => { removed = removeWhere(list, removes(arg)); }));
    try {
      await queryFulfilled;
    } catch (failure) {
      if (isCancelled((failure as { error?: unknown }).error)) return;
      dispatch(update('notificationList', userId, (list) => { restore(list, removed); }));
    }
  };
}

export const { useNotificationListQuery, useNotificationDismissMutation, useNotificationClearAllMutation } =
  notificationsApi;
