import { screen, waitFor } from '@testing-library/react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { server } from '../testing/msw-server.ts';
import { shellHandlers } from '../testing/shell-handlers.ts';
import { testStore } from '../testing/stores.ts';
import { fakeToken, signedInSession } from '../testing/tokens.ts';
import { App } from './app.tsx';

function storeSession(session: Record<string, string>) {
  for (const [key, value] of Object.entries(session)) localStorage.setItem(key, value);
}

describe('App', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('refreshes a missing token on start and signs out when that fails', async () => {
    let loggedOut = false;
    server.use(
      http.post('/api/auth/refresh', () => HttpResponse.json({ code: 'unauthorized' }, { status: 401 })),
      http.post('/api/auth/logout', () => {
        loggedOut = true;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    render(<App store={testStore()} />);

    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(loggedOut).toBe(true);
  });

  it('keeps the session when the start-up refresh of an expired token works', async () => {
    const fresh = fakeToken(900);
    storeSession(signedInSession(fakeToken(-10)));
    server.use(http.post('/api/auth/refresh', () => HttpResponse.json({ accessToken: fresh })), ...shellHandlers());
    render(<App store={testStore()} />);

    expect(await screen.findByText('© 2025 w-meter. All rights reserved.')).toBeInTheDocument();
    expect(screen.getByTestId('username')).toHaveTextContent('alice');
    expect(localStorage.getItem('token')).toBe(fresh);
  });

  it("shows 'Invalid credentials' on a bad password, then signs in and goes to /", async () => {
    server.use(
      http.post('/api/auth/refresh', () => HttpResponse.json({}, { status: 401 })),
      http.post('/api/auth/logout', () => new HttpResponse(null, { status: 204 })),
      http.post('/api/auth/login', async ({ request }) => {
        const body = (await request.json()) as { username: string; password: string };
        if (body.password !== 'right') return HttpResponse.json({ code: 'invalid_credentials' }, { status: 401 });
        expect(body.username).toBe('alice');
        return HttpResponse.json({ accessToken: fakeToken(), role: 'admin', userId: 'u1' });
      }),
      ...shellHandlers(),
    );
    render(<App store={testStore()} />);
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText('Username'), '  alice ');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid credentials')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'right');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    await waitFor(() => { expect(window.location.pathname).toBe('/'); });
    expect(localStorage.getItem('username')).toBe('alice');
    expect(localStorage.getItem('role')).toBe('admin');
    expect(localStorage.getItem('userId')).toBe('u1');
  });

  it('clears the session on logout even when the server call fails', async () => {
    storeSession(signedInSession());
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server.use(http.post('/api/auth/logout', () => HttpResponse.json({}, { status: 500 })), ...shellHandlers());
    render(<App store={testStore()} />);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Logout' }));

    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    for (const key of ['token', 'role', 'username', 'userId']) expect(localStorage.getItem(key)).toBeNull();
  });

  it('shows the uptime as hours, minutes and seconds', async () => {
    storeSession(signedInSession());
    server.use(...shellHandlers());
    render(<App store={testStore()} />);
    expect(await screen.findByTestId('uptime')).toHaveTextContent('Uptime: 1h 2m 5s');
  });

  it("shows 'Unexpected Application Error!' for an unknown route", async () => {
    storeSession(signedInSession());
    window.history.replaceState(null, '', '/no-such-screen');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(<App store={testStore()} />);
    expect(await screen.findByText('Unexpected Application Error!')).toBeInTheDocument();
  });
});
