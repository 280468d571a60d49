// Users shaped like `/api/admin/users` answers (docs/administration.md), and
// a fake server holding them, for the users tests.
import { http, HttpResponse } from 'msw';

import { server } from '../../../testing/msw-server.ts';
import { signedInSession } from '../../../testing/tokens.ts';
import type { ManagedUser } from '../api/users-api.ts';

/** The signed-in admin of `renderWithProviders` (alice). */
export const ALICE: ManagedUser = {
  id: signedInSession().userId,
  username: 'alice',
  role: 'admin',
  disabled: false,
  createdAt: '2026-11-01T08:00:00Z',
  mustChangePassword: false,
};

export function managedUser(overrides: Partial<ManagedUser> = {}): ManagedUser {
  return {
    id: '6b031854dbdeac91e41b6318',
    username: 'bob',
    role: 'operator',
    disabled: false,
    createdAt: '2026-11-02T08:00:00Z',
    mustChangePassword: false,
    ...overrides,
  };
}

export interface Served {
  /** Every `q` the list was asked with ('' for none). */
  searches: string[];
  /** Every change's method, path and body. */
  changes: { method: string; path: string; body: unknown }[];
}

/**
 * The list (filtered by `q` as the server does) and the changes, which
 * alter `users`; `refuse` answers a PATCH instead, when given.
 */
export function serveUsers(users: ManagedUser[], refuse?: () => Response): Served {
  const served: Served = { searches: [], changes: [] };
  const record = async (request: Request) => {
    const body: unknown = request.headers.get('content-type')?.includes('json') ? await request.json() : null;
    served.changes.push({ method: request.method, path: new URL(request.url).pathname, body });
    return body as Record<string, unknown> | null;
  };
  server.use(
    http.get('/api/admin/users', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      served.searches.push(q);
      const items = users.filter((user) => user.username.toLowerCase().includes(q.toLowerCase()));
      return HttpResponse.json({ items });
    }),
    http.post('/api/admin/users', async ({ request }) => {
      const body = (await record(request)) as { username: string; role: string; password?: string };
      const user = managedUser({ id: `new-${body.username}`, username: body.username, role: body.role, mustChangePassword: body.password === undefined });
      users.push(user);
      return HttpResponse.json(
        { user, ...(body.password === undefined ? { oneTimePassword: 'Xq7-one-time-42' } : {}) },
        { status: 201 },
      );
    }),
    http.patch('/api/admin/users/:id', async ({ request, params }) => {
      const body = (await record(request)) as Partial<ManagedUser>;
      if (refuse) return refuse();
      const index = users.findIndex((user) => user.id === params.id);
      const changed = { ...users[index], ...body } as ManagedUser;
      users[index] = changed;
      return HttpResponse.json(changed);
    }),
    http.post('/api/admin/users/:id/password-reset', async ({ request }) => {
      await record(request);
      return HttpResponse.json({ oneTimePassword: 'Reset-0ne-time-7' });
    }),
    http.post('/api/admin/users/:id/revoke-sessions', async ({ request }) => {
      await record(request);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return served;
}
