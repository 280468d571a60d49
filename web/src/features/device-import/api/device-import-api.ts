// The CSV import of gateways or meters (`POST /api/devices/import/{kind}`,
// operators and admins): the file's bytes as they are, checked (a dry run)
// or applied (`apply=true`). An applied import that registers devices makes
// every list and count of their kind stale, as a registration does.
import { api } from '../../../lib/api.ts';
import type { DeviceCsvKind } from '../../../lib/types.ts';

/** What is wrong with a row: `field` names its column, or is '' for the whole row. */
export interface ImportProblem {
  /** 1 is the first line after the header. */
  row: number;
  field: string;
  message: string;
}

export interface ImportReport {
  kind: DeviceCsvKind;
  applied: boolean;
  /** The data rows read. */
  rows: number;
  /** The rows without a problem, `unchanged` ones included. */
  valid: number;
  /** Registered by this request: none in a dry run. */
  registered: number;
  /** Rows identical to a device already registered, which an import does not register twice. */
  unchanged: number;
  errors: ImportProblem[];
}

export interface ImportArg {
  kind: DeviceCsvKind;
  /** The file's bytes, undecoded: the server says when they are not UTF-8. */
  csv: ArrayBuffer;
  apply: boolean;
}

const DEVICE_TAG = { gateways: 'Gateway', meters: 'Meter' } as const;

/** The devices a dry run's report would register: its valid rows not registered already. */
export const toRegister = (report: ImportReport) => report.valid - report.unchanged;

export const deviceImportApi = api.injectEndpoints({
  endpoints: (build) => ({
    importDevices: build.mutation<ImportReport, ImportArg>({
      query: ({ kind, csv, apply }) => ({
        url: `api/devices/import/${kind}`,
        method: 'POST',
        ...(apply ? { params: { apply: true } } : {}),
        headers: { 'Content-Type': 'text/csv' },
        body: csv,
        // A 413 from a proxy in front of the server is not JSON.
        responseHandler: 'content-type',
      }),
      invalidatesTags: (report, _error, { kind }) =>
        report?.applied && report.registered > 0 ? [DEVICE_TAG[kind], 'Count'] : [],
    }),
  }),
});

export const { useImportDevicesMutation } = deviceImportApi;
