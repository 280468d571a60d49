// `GET /api/proxy/fieldcheck/{value}?fieldName=` (spec §7): shared by the
// registration forms and the gateway edit panel.
import { api } from './api.ts';

export type CheckedField = 'serialNumber' | 'imei' | 'phoneNumber' | 'bleAddress' | 'macAddress';

const fieldcheckApi = api.injectEndpoints({
  endpoints: (build) => ({
    fieldExists: build.query<boolean, { field: CheckedField; value: string }>({
      query: ({ field, value }) => ({
        url: `api/proxy/fieldcheck/${encodeURIComponent(value)}`,
        params: { fieldName: field },
      }),
      transformResponse: (body: { exists: boolean }) => body.exists,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazyFieldExistsQuery } = fieldcheckApi;
