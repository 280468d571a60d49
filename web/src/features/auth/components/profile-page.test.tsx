import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { fakeToken, signedInSession } from '../../../testing/tokens.ts';
import type { Preferences } from '../api/auth-api.ts';
import ProfilePage from './profile-page.tsx';

const SESSION = { ...signedInSession(), role: 'operator' };

/** `/api/auth/me`, and the password change answered by `answer`; returns the change requests' bodies. */
function serve(answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.get('/api/auth/me', () => HttpResponse.json({ id: SESSION.userId, username: 'alice', role: 'operator', mustChangePassword: false })),
    http.post('/api/auth/password', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

const render = () => renderWithProviders(<ProfilePage />, { route: '/profile', preloadedState: { session: SESSION } });

async function fill(current: string, next: string, confirm: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Current password/), current);
  await user.type(screen.getByLabelText(/^New password/), next);
  await user.type(screen.getByLabelText(/^Confirm the new password/), confirm);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('the profile', () => {
  it('shows who is signed in and their role', async () => {
    serve(() => HttpResponse.json({}));
    render();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(await screen.findByText('alice')).toBeInTheDocument();
    expect(screen.getByText('Operator')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Change password' })).toBeInTheDocument();
  });

  it('asks the server nothing until both new passwords match', async () => {
    const bodies = serve(() => HttpResponse.json({}));
    render();

    await fill('old-secret', 'new-secret-1', 'new-secret-2');

    expect(screen.getByLabelText(/^Confirm the new password/)).toHaveAccessibleDescription('The passwords do not match');
    expect(screen.getByLabelText(/^Confirm the new password/)).toBeInvalid();
    expect(bodies).toEqual([]);
  });

  it('asks for a new password of at least 8 characters', async () => {
    const bodies = serve(() => HttpResponse.json({}));
    render();
    await fill('old-secret', 'short', 'short');
    expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription('The new password must be at least 8 characters');
    expect(bodies).toEqual([]);
  });

  it('shows a wrong current password under its field', async () => {
    const bodies = serve(() =>
      HttpResponse.json(
        { code: 'validation_failed', message: 'The current password is wrong', fields: { currentPassword: 'The current password is wrong' } },
        { status: 400 },
      ),
    );
    render();

    await fill('not-it', 'new-secret-1', 'new-secret-1');

    await waitFor(() => {
      expect(screen.getByLabelText(/^Current password/)).toHaveAccessibleDescription('The current password is wrong');
    });
    expect(bodies).toEqual([{ currentPassword: 'not-it', newPassword: 'new-secret-1' }]);
    expect(screen.getByLabelText(/^New password/)).toHaveValue('new-secret-1');
  });

  it('stores the access token the change answers with, as a sign-in does', async () => {
    const fresh = fakeToken(900, { role: 'operator', fresh: true });
    serve(() => HttpResponse.json({ accessToken: fresh, role: 'operator', userId: SESSION.userId }));
    const { store } = render();

    await fill('old-secret', 'new-secret-1', 'new-secret-1');

    expect(await screen.findByText('Your password was changed')).toBeInTheDocument();
    expect(store.getState().session).toMatchObject({ token: fresh, role: 'operator', username: 'alice', userId: SESSION.userId });
    expect(localStorage.getItem('token')).toBe(fresh);
    expect(screen.getByLabelText(/^Current password/)).toHaveValue('');
  });

  it('offers the theme: System, Light or Dark, saved for the user as soon as it is chosen', async () => {
    serve(() => HttpResponse.json({}));
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/auth/preferences', async ({ request }) => {
        const body = (await request.json()) as Preferences;
        bodies.push(body);
        return HttpResponse.json(body);
      }),
    );
    render();
    const theme = screen.getByRole('radiogroup', { name: 'Theme' });
    expect(theme).toHaveAccessibleDescription(/^System follows the light or dark setting of your device/);
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();

    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));

    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await waitFor(() => { expect(bodies).toEqual([{ language: 'en', theme: 'dark' }]); });
    expect(localStorage.getItem('theme')).toBe('dark');
  });

  it('says so when the change fails for another reason', async () => {
    serve(() => HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 }));
    render();
    await fill('old-secret', 'new-secret-1', 'new-secret-1');
    expect(await screen.findByText('The password could not be changed. Please try again.')).toBeInTheDocument();
  });
});
