// What the shell and the overview ask for once signed in, answered empty,
// for the tests that render the whole app.
import { http, HttpResponse, type HttpHandler } from 'msw';

import { emptyExtraReads } from './extra-reads.ts';
import { signedInSession } from './tokens.ts';

export function shellHandlers(): HttpHandler[] {
  return [
    http.get('/api/auth/me', () =>
      HttpResponse.json({
        id: signedInSession().userId,
        username: 'alice',
        role: 'admin',
        mustChangePassword: false,
        preferences: { language: 'en', theme: 'system' },
      }),
    ),
    http.get('/api/proxy/', () => HttpResponse.json({ uptime: 3725 })),
    http.get('/api/proxy/:kind/count', () => HttpResponse.json({ count: 0 })),
    http.get('/api/proxy/:kind/:subset/count', () => HttpResponse.json({ count: 0 })),
    http.get('/api/proxy/gateways/gateway-activity', () => HttpResponse.json([])),
    http.get('/api/notifications/:userId', () => HttpResponse.json([])),
    http.get('/api/notifications', () => new HttpResponse(': quiet\n\n', { headers: { 'content-type': 'text/event-stream' } })),
    ...emptyExtraReads(),
  ];
}
