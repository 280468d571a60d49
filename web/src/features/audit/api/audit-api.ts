// The audit trail, for admins (`/api/audit`, docs/administration.md, Audit
// screen): a page of entries, newest first, and the same filter as a CSV
// download (`/api/audit/export`), fetched with the bearer token like the
// other exports and saved under the server's file name.
import { api } from '../../../lib/api.ts';
import { downloadFile } from '../../../lib/exports-api.ts';

/** The target as the server stored it (a device or a user), as JSON. */
export type Snapshot = Record<string, unknown>;

export interface AuditEntry {
  /** The event's id (UUIDv7). */
  id: string;
  /** When, in UTC (ISO 8601, to the microsecond). */
  at: string;
  /** The acting user's id, `cli` or `system:demo`. */
  actor: string;
  /** The acting user's name, when the actor is a user. */
  username: string | null;
  /** The actor's role at the time. */
  role: string;
  /** The client's address; empty when the change did not come over HTTP. */
  sourceIp: string;
  /** What was attempted, e.g. `meter.edit`. */
  action: string;
  /** The device's or user's id. */
  target: string;
  /** The target before; null when it did not exist. */
  before: Snapshot | null;
  /** The target after; null when it no longer exists or on a refusal. */
  after: Snapshot | null;
  /** `ok`, or the code the attempt was refused with. */
  outcome: string;
  /** Why it was refused; empty when it succeeded. */
  detail: string;
}

export interface AuditPage {
  page: number;
  max: number;
  /** Entries the whole filter selects. */
  total: number;
  entries: AuditEntry[];
}

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page: `params` are the API's query parameters (filter, `page`, `max`). */
    auditEntries: build.query<AuditPage, Record<string, string>>({
      query: (params) => ({ url: 'api/audit', params }),
    }),
    /** Every entry of the filter as CSV; answers the name it was saved under. */
    auditCsv: build.mutation<string, Record<string, string>>({
      queryFn: (params, queryApi) => downloadFile('api/audit/export', params, 'audit.csv', queryApi),
    }),
  }),
});

export const { useAuditEntriesQuery, useAuditCsvMutation } = auditApi;
