// The alarm endpoints (docs/alarms.md). Every alarm query carries the
// `Alarm` tag and the counts `AlarmCounts`, which is what an `alarm` change
// hint invalidates, so open pages follow the lifecycle without polling.
import { api } from '../../../lib/api.ts';
import type { Acknowledged, AlarmCounts, AlarmDetail, AlarmPage, Assignable } from './alarm-types.ts';

export const ALARM_LIST_TAG = { type: 'Alarm', id: 'LIST' } as const;
const alarmTag = (id: string) => ({ type: 'Alarm', id }) as const;
const path = (id: string) => `api/alarms/${encodeURIComponent(id)}`;

export interface AlarmPageArg {
  /** The filter and order, as the API's query parameters. */
  params: Record<string, string>;
  max: number;
  /** The `next` cursor of the page before. */
  after?: string | undefined;
}

/** One lifecycle action; a note is optional, a comment's text is not. */
export type AlarmAction =
  | { id: string; action: 'acknowledge' | 'clear' | 'close'; note: string }
  | { id: string; action: 'comment'; text: string }
  | { id: string; action: 'assign'; assignee: string | null };

function bodyOf(arg: AlarmAction) {
  switch (arg.action) {
    case 'comment':
      return { text: arg.text };
    case 'assign':
      return { assignee: arg.assignee };
    default:
      return { note: arg.note };
  }
}

export const alarmsApi = api.injectEndpoints({
  endpoints: (build) => ({
    alarms: build.query<AlarmPage, AlarmPageArg>({
      query: ({ params, max, after }) => ({
        url: 'api/alarms',
        params: { ...params, max, ...(after ? { after } : {}) },
      }),
      providesTags: (result) => [ALARM_LIST_TAG, ...(result?.items ?? []).map((alarm) => alarmTag(alarm.id))],
    }),
    alarm: build.query<AlarmDetail, string>({
      query: path,
      providesTags: (_result, _error, id) => [alarmTag(id)],
    }),
    alarmCounts: build.query<AlarmCounts, string | undefined>({
      query: (device) => ({ url: 'api/alarms/counts', ...(device ? { params: { device } } : {}) }),
      providesTags: ['AlarmCounts'],
    }),
    alarmAssignees: build.query<Assignable[], undefined>({
      query: () => 'api/alarms/assignees',
    }),
    alarmAction: build.mutation<AlarmDetail, AlarmAction>({
      query: (arg) => ({ url: `${path(arg.id)}/${arg.action}`, method: 'POST', body: bodyOf(arg) }),
      // Re-read even after a refusal: someone else may have acted first.
      invalidatesTags: (_result, _error, { id }) => [alarmTag(id), ALARM_LIST_TAG, 'AlarmCounts'],
    }),
    acknowledgeAlarms: build.mutation<Acknowledged, { ids: string[]; note: string }>({
      query: (body) => ({ url: 'api/alarms/acknowledge', method: 'POST', body }),
      invalidatesTags: ['Alarm', 'AlarmCounts'],
    }),
  }),
});

export const {
  useAlarmsQuery,
  useLazyAlarmsQuery,
  useAlarmQuery,
  useAlarmCountsQuery,
  useAlarmAssigneesQuery,
  useAlarmActionMutation,
  useAcknowledgeAlarmsMutation,
} = alarmsApi;
