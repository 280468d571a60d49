// Audit entries shaped like `/api/audit` answers (docs/administration.md,
// Audit screen), and a fake server paging them, for the audit tests.
import { http, HttpResponse } from 'msw';

import { csvFile } from '../../../testing/downloads.ts';
import { server } from '../../../testing/msw-server.ts';
import { signedInSession } from '../../../testing/tokens.ts';
import type { AuditEntry } from '../api/audit-api.ts';

export const METER_ID = '6b031854dbdeac91e41b633c';
export const BOB_ID = '6b031854dbdeac91e41b6318';
export const EXPORT_NAME = 'audit-2026-11-24T08-00Z.csv';
export const CSV_HEADER = 'at,actor,username,role,source_ip,action,target,outcome,detail,before,after';

export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: '0193a1b2-0000-7000-8000-000000000001',
    at: '2026-11-02T08:15:00.123456Z',
    actor: signedInSession().userId,
    username: 'alice',
    role: 'admin',
    sourceIp: '192.0.2.10',
    action: 'meter.edit',
    target: METER_ID,
    before: { name: 'W-SM00000001', lat: 48.85 },
    after: { name: 'W-SM00000001', lat: 48.86 },
    outcome: 'ok',
    detail: '',
    ...overrides,
  };
}

/** `count` entries, newest first, with distinct ids. */
export function auditEntries(count: number): AuditEntry[] {
  return Array.from({ length: count }, (_, i) =>
    auditEntry({ id: `0193a1b2-0000-7000-8000-${String(i).padStart(12, '0')}`, target: `target-${String(i)}`, action: 'user.role' }),
  );
}

export interface Served {
  /** The query parameters of every page asked for. */
  pages: Record<string, string>[];
  /** Every export request. */
  exports: Request[];
}

/**
 * `/api/audit` paging `entries` as the server does (`page`, `max`, and the
 * action filter by first part; other filters only recorded) and
 * `/api/audit/export`; `answer` answers the page instead, when given.
 */
export function serveAudit(entries: AuditEntry[], answer?: () => Response): Served {
  const served: Served = { pages: [], exports: [] };
  server.use(
    http.get('/api/audit', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      served.pages.push(params);
      if (answer) return answer();
      const page = Number(params.page ?? '1');
      const max = Number(params.max ?? '50');
      const action = params.action;
      const matching = action
        ? entries.filter((entry) => entry.action === action || entry.action.startsWith(`${action}.`))
        : entries;
      return HttpResponse.json({ page, max, total: matching.length, entries: matching.slice((page - 1) * max, page * max) });
    }),
    http.get('/api/audit/export', ({ request }) => {
      served.exports.push(request);
      return csvFile(EXPORT_NAME, `${CSV_HEADER}\r\n`);
    }),
  );
  return served;
}
