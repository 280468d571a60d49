import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import { ALICE, managedUser, serveUsers } from '../testing/user-fixtures.ts';
import UsersPage from './users-page.tsx';

const BOB = managedUser();
const CAROL = managedUser({ id: '6b031854dbdeac91e41b6319', username: 'carol', role: 'viewer', disabled: true, mustChangePassword: true });

const render = (role = 'admin') =>
  renderWithProviders(<UsersPage />, { route: '/admin/users', preloadedState: { session: { ...signedInSession(), role } } });

const row = (username: string) => screen.getByTestId(`user-${username}`);

async function chooseRole(username: string, role: string) {
  const user = userEvent.setup();
  await user.click(within(row(username)).getByRole('combobox', { name: `Role of ${username}` }));
  await user.click(await screen.findByRole('option', { name: role }));
}

describe('the Users screen', () => {
  it('lists each user with their role, state, must-change flag and creation, and offers no change of one\'s own role or state', async () => {
    serveUsers([ALICE, BOB, CAROL]);
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Username', 'Role', 'State', 'Must change password', 'Created', 'Actions',
    ]);

    const bob = row('bob');
    expect(within(bob).getByRole('combobox', { name: 'Role of bob' })).toHaveTextContent('Operator');
    expect(within(bob).getByText('Active')).toBeInTheDocument();
    expect(within(bob).getByText('No')).toBeInTheDocument();
    expect(within(bob).getByText(/^02-11-26, /)).toBeInTheDocument();
    expect(within(bob).getByRole('button', { name: 'Disable bob' })).toBeEnabled();

    const carol = row('carol');
    expect(within(carol).getByText('Disabled')).toBeInTheDocument();
    expect(within(carol).getByText('Yes')).toBeInTheDocument();
    expect(within(carol).getByRole('button', { name: 'Enable carol' })).toBeEnabled();

    const own = row('alice');
    expect(within(own).getByText('you')).toBeInTheDocument();
    expect(within(own).getByRole('combobox', { name: 'Role of alice' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(own).getByRole('button', { name: 'Disable alice' })).toBeDisabled();
    expect(within(own).getByRole('button', { name: 'Reset password for alice' })).toBeEnabled();
  });

  it('searches as one types, asking the server once the typing stops', async () => {
    const served = serveUsers([ALICE, BOB, CAROL]);
    render();
    await screen.findByTestId('user-carol');
    const user = userEvent.setup();

    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'BO');

    await waitFor(() => { expect(screen.queryByTestId('user-carol')).toBeNull(); });
    expect(row('bob')).toBeInTheDocument();
    expect(served.searches).toEqual(['', 'BO']);
  });

  it('says when no user matches', async () => {
    serveUsers([ALICE]);
    render();
    await screen.findByTestId('user-alice');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'zed');
    expect(await screen.findByText('No user matches this search')).toBeInTheDocument();
  });

  it('creates a user with a one-time password, and shows that password once, with a copy button', async () => {
    const served = serveUsers([ALICE]);
    render();
    await screen.findByTestId('user-alice');
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    expect(within(dialog).getByRole('radio', { name: 'Generate a one-time password' })).toBeChecked();
    expect(within(dialog).queryByLabelText(/^Password/, { selector: 'input' })).toBeNull();
    await user.type(within(dialog).getByLabelText(/^Username/), '  dave ');
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Operator' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const shown = await screen.findByRole('dialog', { name: 'One-time password for dave' });
    expect(served.changes).toEqual([{ method: 'POST', path: '/api/admin/users', body: { username: 'dave', role: 'operator' } }]);
    expect(within(shown).getByLabelText('One-time password')).toHaveValue('Xq7-one-time-42');
    await user.click(within(shown).getByRole('button', { name: 'Copy the password' }));
    expect(await navigator.clipboard.readText()).toBe('Xq7-one-time-42');
    expect(await screen.findByText('The password was copied')).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(screen.queryByDisplayValue('Xq7-one-time-42')).toBeNull();
    expect(await screen.findByTestId('user-dave')).toHaveTextContent('Yes');
  });

  it('creates a user with the password set, checking its length first', async () => {
    const served = serveUsers([ALICE]);
    render();
    await screen.findByTestId('user-alice');
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    await user.type(within(dialog).getByLabelText(/^Username/), 'erin');
    await user.click(within(dialog).getByRole('radio', { name: 'Set a password' }));
    await user.type(within(dialog).getByLabelText(/^Password/, { selector: 'input' }), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('The password must be at least 8 characters')).toBeInTheDocument();
    expect(served.changes).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^Password/, { selector: 'input' }), '-enough');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('erin was created')).toBeInTheDocument();
    expect(served.changes[0]?.body).toEqual({ username: 'erin', role: 'viewer', password: 'short-enough' });
    expect(screen.queryByRole('dialog', { name: /One-time password/ })).toBeNull();
  });

  it("shows the server's refusals: a field under its field, a taken username as an alert", async () => {
    serveUsers([ALICE]);
    let answer = HttpResponse.json(
      { code: 'validation_failed', message: 'Invalid input', fields: { username: 'the username must be 1 to 64 characters, without control characters' } },
      { status: 400 },
    );
    server.use(http.post('/api/admin/users', () => answer));
    render();
    await screen.findByTestId('user-alice');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    await user.type(within(dialog).getByLabelText(/^Username/), 'frank');

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('The username must be 1 to 64 characters, without control characters')).toBeInTheDocument();

    answer = HttpResponse.json({ code: 'already_in_use', message: "the username 'frank' is taken" }, { status: 409 });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This username is already taken');
  });

  it('changes a role at once', async () => {
    const served = serveUsers([ALICE, BOB]);
    render();
    await screen.findByTestId('user-bob');

    await chooseRole('bob', 'Viewer');

    expect(await screen.findByText('bob is now Viewer')).toBeInTheDocument();
    expect(served.changes).toEqual([{ method: 'PATCH', path: `/api/admin/users/${BOB.id}`, body: { role: 'viewer' } }]);
    await waitFor(() => { expect(within(row('bob')).getByRole('combobox', { name: 'Role of bob' })).toHaveTextContent('Viewer'); });
  });

  it('shows the last_admin refusal as an alert', async () => {
    serveUsers([ALICE, managedUser({ role: 'admin' })], () =>
      HttpResponse.json(
        { code: 'last_admin', message: 'The last enabled admin cannot be disabled or lose the admin role' },
        { status: 409 },
      ),
    );
    render();
    await screen.findByTestId('user-bob');

    await chooseRole('bob', 'Operator');

    expect(await screen.findByRole('alert')).toHaveTextContent('The last enabled admin cannot be disabled or lose the admin role');
    expect(within(row('bob')).getByRole('combobox', { name: 'Role of bob' })).toHaveTextContent('Admin');
  });

  it('disables a user once confirmed, and enables one at once', async () => {
    const served = serveUsers([ALICE, BOB, CAROL]);
    render();
    await screen.findByTestId('user-bob');
    const user = userEvent.setup();

    await user.click(within(row('bob')).getByRole('button', { name: 'Disable bob' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disable bob?' });
    await user.click(within(confirm).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('bob was disabled')).toBeInTheDocument();
    await waitFor(() => { expect(within(row('bob')).getByText('Disabled')).toBeInTheDocument(); });
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });

    await user.click(within(row('carol')).getByRole('button', { name: 'Enable carol' }));
    expect(await screen.findByText('carol was enabled')).toBeInTheDocument();
    expect(served.changes.map((change) => change.body)).toEqual([{ disabled: true }, { disabled: false }]);
  });

  it('resets a password once confirmed and shows the new one-time password', async () => {
    const served = serveUsers([ALICE, BOB]);
    render();
    await screen.findByTestId('user-bob');
    const user = userEvent.setup();

    await user.click(within(row('bob')).getByRole('button', { name: 'Reset password for bob' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Reset the password of bob?' })).getByRole('button', { name: 'Reset password' }));

    const shown = await screen.findByRole('dialog', { name: 'One-time password for bob' });
    expect(within(shown).getByLabelText('One-time password')).toHaveValue('Reset-0ne-time-7');
    expect(served.changes.map((change) => change.path)).toEqual([`/api/admin/users/${BOB.id}/password-reset`]);
  });

  it('revokes every session once confirmed, and not when cancelled', async () => {
    const served = serveUsers([ALICE, BOB]);
    render();
    await screen.findByTestId('user-bob');
    const user = userEvent.setup();
    const revoke = within(row('bob')).getByRole('button', { name: 'Revoke sessions of bob' });

    await user.click(revoke);
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke every session of bob?' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(served.changes).toEqual([]);

    await user.click(revoke);
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke every session of bob?' })).getByRole('button', { name: 'Revoke sessions' }));
    expect(await screen.findByText('Every session of bob ended')).toBeInTheDocument();
    expect(served.changes.map((change) => change.path)).toEqual([`/api/admin/users/${BOB.id}/revoke-sessions`]);
  });

  it('tells another role it may not manage users, and asks the server nothing', async () => {
    const served = serveUsers([ALICE]);
    render('operator');
    expect(screen.getByText('Only admins can manage users. Your role does not allow it.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'New user' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served.searches).toEqual([]);
  });
});
