// The forced password change (docs/administration.md): while the password is
// one-time, every route leads to /change-password, whatever says so first
// (the token's `chg` claim, `/api/auth/me`, or any 403
// `password_change_required`); once changed, the overview.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { server } from '../testing/msw-server.ts';
import { shellHandlers } from '../testing/shell-handlers.ts';
import { testStore } from '../testing/stores.ts';
import { fakeToken, signedInSession } from '../testing/tokens.ts';
import { App } from './app.tsx';

const SESSION = signedInSession();
const REFUSAL = { code: 'password_change_required', message: 'Change your password before you go on' };

function storeSession(session: Record<string, string>) {
  for (const [key, value] of Object.entries(session)) localStorage.setItem(key, value);
}

/**
 * A server whose every route but the two of the password change refuses
 * with 403 until the password is changed; `me` says whether it must be.
 * Returns the password change requests' bodies.
 */
function serveOneTimePassword({ meSays }: { meSays: boolean }) {
  let oneTime = true;
  const changes: unknown[] = [];
  server.use(
    http.get('/api/auth/me', () =>
      HttpResponse.json({ id: SESSION.userId, username: 'alice', role: 'admin', mustChangePassword: oneTime && meSays }),
    ),
    http.post('/api/auth/password', async ({ request }) => {
      changes.push(await request.json());
      oneTime = false;
      return HttpResponse.json({ accessToken: fakeToken(900, { role: 'admin', changed: true }), role: 'admin', userId: SESSION.userId });
    }),
    // Falls through to the shell's handlers once the password is changed.
    http.all('/api/*', () => (oneTime ? HttpResponse.json(REFUSAL, { status: 403 }) : undefined)),
    ...shellHandlers(),
  );
  return changes;
}

async function changePassword(current: string, next: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^Current password/), current);
  await user.type(screen.getByLabelText(/^New password/), next);
  await user.type(screen.getByLabelText(/^Confirm the new password/), next);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('a one-time password', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/gateways');
    // The overview's refused reads are logged.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('sends the user to the password change on the first 403 password_change_required, then to the overview', async () => {
    storeSession(SESSION);
    const changes = serveOneTimePassword({ meSays: false });
    render(<App store={testStore()} />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Change your password' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/change-password');
    expect(screen.getByText(/can be used only once/)).toBeInTheDocument();
    // Nothing of the shell is offered meanwhile.
    expect(screen.queryByRole('navigation')).toBeNull();

    await changePassword('Xq7-one-time-42', 'my-own-secret');

    await waitFor(() => { expect(window.location.pathname).toBe('/'); });
    expect(await screen.findByText('© 2025 w-meter. All rights reserved.')).toBeInTheDocument();
    expect(changes).toEqual([{ currentPassword: 'Xq7-one-time-42', newPassword: 'my-own-secret' }]);
  });

  it('sends the user there when /api/auth/me says the password must be changed', async () => {
    storeSession(SESSION);
    serveOneTimePassword({ meSays: true });
    render(<App store={testStore()} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Change your password' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/change-password');
  });

  it('sends the user there right after signing in with a token that carries chg, and keeps them there', async () => {
    window.history.replaceState(null, '', '/login');
    serveOneTimePassword({ meSays: true });
    server.use(
      http.post('/api/auth/refresh', () => HttpResponse.json({}, { status: 401 })),
      http.post('/api/auth/logout', () => new HttpResponse(null, { status: 204 })),
      http.post('/api/auth/login', () =>
        HttpResponse.json({ accessToken: fakeToken(900, { role: 'operator', chg: true }), role: 'operator', userId: 'u2' }),
      ),
    );
    render(<App store={testStore()} />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'olivia');
    await user.type(screen.getByLabelText('Password'), 'Xq7-one-time-42');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Change your password' })).toBeInTheDocument();
    expect(screen.getByText('Signed in as olivia')).toBeInTheDocument();
    window.history.pushState(null, '', '/alarms');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await waitFor(() => { expect(window.location.pathname).toBe('/change-password'); });
  });
});
