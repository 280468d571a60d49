// API keys shaped like `/api/admin/api-keys` answers, and a fake server
// holding them, for the API keys tests.
import { http, HttpResponse } from 'msw';

import { server } from '../../../testing/msw-server.ts';
import type { ApiKey } from '../api/api-keys-api.ts';

export function apiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: '6b031854dbdeac91e41b6401',
    name: 'ci-deploy',
    prefix: 'wmk_3fq8k2ma',
    role: 'operator',
    createdAt: '2026-11-02T08:00:00Z',
    createdBy: 'alice',
    expiresAt: '2027-02-01T08:00:00Z',
    revokedAt: null,
    lastUsedAt: null,
    lastUsedAddress: null,
    status: 'active',
    ...overrides,
  };
}

/** The secret every created key is answered with. */
export const SECRET = 'wmk_9zx7c6vb_Q2hhbmdlLW1lLW5vdy1wbGVhc2U';

export interface Served {
  /** How many times the list was read. */
  reads: number;
  /** Every change's method, path and body. */
  changes: { method: string; path: string; body: unknown }[];
}

/** The list (newest first) and the changes, which alter `keys`; `refuse` answers a POST instead, when given. */
export function serveApiKeys(keys: ApiKey[], refuse?: () => Response): Served {
  const served: Served = { reads: 0, changes: [] };
  const record = async (request: Request) => {
    const body: unknown = request.headers.get('content-type')?.includes('json') ? await request.json() : null;
    served.changes.push({ method: request.method, path: new URL(request.url).pathname, body });
    return body;
  };
  server.use(
    http.get('/api/admin/api-keys', () => {
      served.reads += 1;
      return HttpResponse.json({ items: keys });
    }),
    http.post('/api/admin/api-keys', async ({ request }) => {
      const body = (await record(request)) as { name: string; role: string; expiresAt: string };
      if (refuse) return refuse();
      const key = apiKey({ id: `new-${body.name}`, prefix: 'wmk_9zx7c6vb', createdAt: new Date().toISOString(), ...body });
      keys.unshift(key);
      return HttpResponse.json({ key, secret: SECRET }, { status: 201 });
    }),
    http.post('/api/admin/api-keys/:id/revoke', async ({ request, params }) => {
      await record(request);
      if (refuse) return refuse();
      const index = keys.findIndex((key) => key.id === params.id);
      const revoked: ApiKey = { ...(keys[index] ?? apiKey()), status: 'revoked', revokedAt: new Date().toISOString() };
      keys[index] = revoked;
      return HttpResponse.json(revoked);
    }),
  );
  return served;
}
