import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../testing/msw-server.ts';
import { testStore } from '../testing/stores.ts';
import { fakeToken, signedInSession } from '../testing/tokens.ts';
import { api, isCancelled, REFRESH_HEADER } from './api.ts';
import { selectMustChangePassword } from './session.ts';

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<{ n: number }, number>({ query: (n) => `api/proxy/probe/${String(n)}` }),
  }),
});

const stale = fakeToken(-60);
const fresh = fakeToken(900, { fresh: true });

function protectedProbe() {
  return http.get('/api/proxy/probe/:n', ({ request, params }) =>
    request.headers.get('Authorization') === `Bearer ${fresh}`
      ? HttpResponse.json({ n: Number(params.n) })
      : HttpResponse.json({ code: 'unauthorized', message: 'expired' }, { status: 401 }),
  );
}

describe('baseQueryWithReauth', () => {
  it('shares one refresh among 20 concurrent 401s and retries each once', async () => {
    let refreshes = 0;
    let probes = 0;
    server.use(
      http.post('/api/auth/refresh', async ({ request }) => {
        refreshes += 1;
        expect(request.headers.get(REFRESH_HEADER)).not.toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 20));
        return HttpResponse.json({ accessToken: fresh });
      }),
      http.get('/api/proxy/probe/:n', ({ request, params }) => {
        probes += 1;
        return request.headers.get('Authorization') === `Bearer ${fresh}`
          ? HttpResponse.json({ n: Number(params.n) })
          : HttpResponse.json({ code: 'unauthorized', message: 'expired' }, { status: 401 });
      }),
    );
    const store = testStore({ session: signedInSession(stale) });

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) => store.dispatch(probeApi.endpoints.probe.initiate(n))),
    );

    expect(refreshes).toBe(1);
    expect(probes).toBe(40);
    expect(results.map((r) => r.data?.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(store.getState().session.token).toBe(fresh);
    expect(localStorage.getItem('token')).toBe(fresh);
  });

  it('fails the request and signs out when the refresh fails', async () => {
    server.use(
      http.post('/api/auth/refresh', () => HttpResponse.json({ code: 'unauthorized' }, { status: 401 })),
      protectedProbe(),
    );
    const store = testStore({ session: signedInSession(stale) });
    localStorage.setItem('token', stale);

    const result = await store.dispatch(probeApi.endpoints.probe.initiate(1));

    expect(result.error).toMatchObject({ status: 401 });
    expect(store.getState().session).toEqual({ token: null, role: null, username: null, userId: null });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("makes the session's role the refreshed token's: an admin may have changed it", async () => {
    const demoted = fakeToken(900, { role: 'viewer', fresh: true });
    server.use(
      http.post('/api/auth/refresh', () => HttpResponse.json({ accessToken: demoted })),
      http.get('/api/proxy/probe/:n', ({ request, params }) =>
        request.headers.get('Authorization') === `Bearer ${demoted}`
          ? HttpResponse.json({ n: Number(params.n) })
          : HttpResponse.json({ code: 'unauthorized', message: 'The access token was revoked; refresh it' }, { status: 401 }),
      ),
    );
    const store = testStore({ session: signedInSession(fakeToken(900, { role: 'admin' })) });

    const result = await store.dispatch(probeApi.endpoints.probe.initiate(7));

    expect(result.data).toEqual({ n: 7 });
    expect(store.getState().session).toMatchObject({ token: demoted, role: 'viewer', username: 'alice' });
    expect(localStorage.getItem('role')).toBe('viewer');
  });

  it('keeps the role when the refreshed token names none', async () => {
    server.use(http.post('/api/auth/refresh', () => HttpResponse.json({ accessToken: fresh })), protectedProbe());
    const store = testStore({ session: signedInSession(stale) });
    await store.dispatch(probeApi.endpoints.probe.initiate(1));
    expect(store.getState().session.role).toBe('admin');
  });

  it('notes a 403 password_change_required: the password must be changed first', async () => {
    server.use(
      http.get('/api/proxy/probe/:n', () =>
        HttpResponse.json({ code: 'password_change_required', message: 'Change your password before you go on' }, { status: 403 }),
      ),
    );
    const store = testStore({ session: signedInSession() });
    expect(selectMustChangePassword(store.getState())).toBe(false);

    await store.dispatch(probeApi.endpoints.probe.initiate(1));

    expect(selectMustChangePassword(store.getState())).toBe(true);
  });

  it('does not refresh for a 401 from the login route', async () => {
    let refreshes = 0;
    server.use(
      http.post('/api/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ accessToken: fresh });
      }),
      http.post('/api/auth/login', () => HttpResponse.json({ code: 'invalid_credentials' }, { status: 401 })),
    );
    const loginApi = api.injectEndpoints({
      endpoints: (build) => ({
        probeLogin: build.mutation<unknown, undefined>({
          query: () => ({ url: 'api/auth/login', method: 'POST', body: {} }),
        }),
      }),
    });
    const store = testStore({ session: signedInSession(stale) });

    const result = await store.dispatch(loginApi.endpoints.probeLogin.initiate(undefined));

    expect(result.error).toMatchObject({ status: 401 });
    expect(refreshes).toBe(0);
  });
});

describe('isCancelled', () => {
  it('recognizes aborted requests and nothing else', () => {
    expect(isCancelled(new DOMException('stop', 'AbortError'))).toBe(true);
    expect(isCancelled({ status: 'FETCH_ERROR', error: 'AbortError: The operation was aborted.' })).toBe(true);
    expect(isCancelled({ status: 500 })).toBe(false);
    expect(isCancelled(null)).toBe(false);
  });
});
