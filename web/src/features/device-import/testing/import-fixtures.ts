// Import reports shaped like the server's, and a handler that records what
// the dialog sends; override what a test is about.
import { http, HttpResponse } from 'msw';

import { server } from '../../../testing/msw-server.ts';
import type { ImportReport } from '../api/device-import-api.ts';

export function importReport(overrides: Partial<ImportReport> = {}): ImportReport {
  return { kind: 'gateways', applied: false, rows: 5, valid: 3, registered: 0, unchanged: 1, errors: [], ...overrides };
}

export interface SentImport {
  url: URL;
  contentType: string | null;
  body: string;
}

/** Answers every import of `kind` with `answer(apply)`; returns what was sent. */
export function serveImport(kind: string, answer: (apply: boolean) => Response): SentImport[] {
  const sent: SentImport[] = [];
  server.use(
    http.post(`/api/devices/import/${kind}`, async ({ request }) => {
      const url = new URL(request.url);
      sent.push({ url, contentType: request.headers.get('Content-Type'), body: await request.text() });
      return answer(url.searchParams.get('apply') === 'true');
    }),
  );
  return sent;
}

export const jsonReport = (report: ImportReport) => HttpResponse.json(report);

export const csvOf = (text: string, name = 'gateways.csv') => new File([text], name, { type: 'text/csv' });
