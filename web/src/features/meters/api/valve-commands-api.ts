// A meter's valve commands, followed to the end (docs/alarms.md, Valve
// commands): each step's time, and an operator's resend of a failed or
// timed-out command. `valve` hints refetch the timeline live.
import { api } from '../../../lib/api.ts';

export type ValveStatus = 'pending' | 'sent' | 'acked' | 'failed' | 'timed-out';

export interface ValveCommandStep {
  commandId: string;
  requestId: string | null;
  resendOf: string | null;
  /** A `ValveStatus`. */
  status: string;
  /** The gateway's explanation of a failure. */
  detail: string;
  gatewaySerial: string;
  issuedBy: string;
  issuedByName: string;
  issuedAt: string;
  sentAt: string | null;
  settledAt: string | null;
}

export const valveCommandTag = (meterId: string) => ({ type: 'ValveCommand', id: meterId }) as const;

export const valveCommandsApi = api.injectEndpoints({
  endpoints: (build) => ({
    valveCommands: build.query<ValveCommandStep[], string>({
      query: (meter) => ({ url: 'api/valve-commands', params: { meter } }),
      providesTags: (_result, _error, meter) => [valveCommandTag(meter)],
    }),
    resendValveCommand: build.mutation<{ commandId: string }, { commandId: string; meterId: string }>({
      query: ({ commandId }) => ({ url: `api/valve-commands/${encodeURIComponent(commandId)}/resend`, method: 'POST' }),
      invalidatesTags: (_result, _error, { meterId }) => [valveCommandTag(meterId)],
    }),
  }),
});

export const { useValveCommandsQuery, useResendValveCommandMutation } = valveCommandsApi;
