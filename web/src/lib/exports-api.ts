// CSV exports (docs/analytics.md, Exports; a device list's), any role:
// fetched with the bearer token, which a plain link could not send, and
// saved under the server's file name. A download answers the name it was
// saved under.
import type { BaseQueryApi, FetchBaseQueryError } from '@reduxjs/toolkit/query';

import { api, fetchWithReauth } from './api.ts';
import { seriesParams, type SeriesArg } from './rollups-api.ts';
import { filenameOf, saveBlob } from './save-file.ts';
import type { DeviceCsvKind } from './types.ts';

export interface MeterIndexArg {
  /** ISO 8601; the server rounds it down to its hour. */
  at: string;
  /** Only meters whose serial number or name holds this text. */
  q?: string;
}

export interface DevicesCsvArg {
  kind: DeviceCsvKind;
  /** ISO 8601: only the devices registered before it, as a list's start date; all without. */
  start?: string | undefined;
}

type Outcome = { data: string } | { error: FetchBaseQueryError };

/**
 * GETs the file at `path` with the bearer token (and the re-auth of every
 * request) and saves it under the server's name, or `fallback`: a
 * `queryFn` for a download mutation. Answers the name it was saved under.
 */
export async function downloadFile(path: string, params: Record<string, string>, fallback: string, queryApi: BaseQueryApi): Promise<Outcome> {
  try {
    const response = await fetchWithReauth(path, params, queryApi);
    if (!response.ok) return { error: { status: response.status, data: await response.text() } };
    const filename = filenameOf(response.headers.get('Content-Disposition'), fallback);
    saveBlob(await response.blob(), filename);
    return { data: filename };
  } catch (error) {
    return { error: { status: 'FETCH_ERROR', error: String(error) } };
  }
}

export const exportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The series of `/api/rollups` as CSV, same parameters. */
    consumptionCsv: build.mutation<string, SeriesArg>({
      queryFn: (arg, queryApi) => downloadFile('api/exports/consumption', seriesParams(arg), 'consumption.csv', queryApi),
    }),
    /** Every meter's billing index at an instant, optionally only those `q` matches. */
    meterIndexCsv: build.mutation<string, MeterIndexArg>({
      queryFn: ({ at, q }, queryApi) => {
        const text = q?.trim() ?? '';
        return downloadFile('api/exports/meter-index', { at, ...(text ? { q: text } : {}) }, 'meter-index.csv', queryApi);
      },
    }),
    /** A device list's columns, which re-import as they are, newest first. */
    devicesCsv: build.mutation<string, DevicesCsvArg>({
      queryFn: ({ kind, start }, queryApi) =>
        downloadFile(`api/devices/export/${kind}`, start ? { start } : {}, `${kind}.csv`, queryApi),
    }),
  }),
});

export const { useConsumptionCsvMutation, useMeterIndexCsvMutation, useDevicesCsvMutation } = exportsApi;
