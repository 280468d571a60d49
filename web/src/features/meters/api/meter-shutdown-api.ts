// A meter's shutdown request and the operator's answer (spec §4, §7).
import { api } from '../../../lib/api.ts';
import type { ShutdownRequest } from '../../../lib/types.ts';
import { meterCountTag, meterListTag, meterTag } from './meter-tags.ts';
import { valveCommandTag } from './valve-commands-api.ts';

export type ShutdownAnswer = 'confirmed' | 'rejected';

const path = (id: string) => `api/proxy/wmeters/shutdown-requests/${encodeURIComponent(id)}`;
const shutdownTag = (id: string) => ({ type: 'Shutdown', id }) as const;

export const meterShutdownApi = api.injectEndpoints({
  endpoints: (build) => ({
    meterShutdown: build.query<ShutdownRequest, string>({
      query: path,
      providesTags: (_result, _error, id) => [shutdownTag(id)],
    }),
    meterShutdownAnswer: build.mutation<ShutdownRequest, { id: string; status: ShutdownAnswer }>({
      query: ({ id, status }) => ({ url: path(id), method: 'PATCH', body: { status } }),
      // The request's status is re-read even after a failure (e.g. already answered).
      // A confirmed shutdown sends a valve command and the meter goes down.
      invalidatesTags: (_result, error, { id, status }) =>
        error || status === 'rejected'
          ? [shutdownTag(id)]
          : [shutdownTag(id), meterTag(id), meterListTag('down'), meterCountTag('down'), valveCommandTag(id)],
    }),
  }),
});

export const { useMeterShutdownQuery, useMeterShutdownAnswerMutation } = meterShutdownApi;
