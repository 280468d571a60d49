import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { NavList } from '../../../app/shell/nav-list.tsx';
import { localDateInput, startOfLocalDay } from '../../../lib/local-date-time.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import { apiKey, SECRET, serveApiKeys } from '../testing/api-key-fixtures.ts';
import ApiKeysPage from './api-keys-page.tsx';

const DAY_MS = 86_400_000;

const USED = apiKey({
  id: '6b031854dbdeac91e41b6402',
  name: 'billing-export',
  prefix: 'wmk_7hd2m4qa',
  role: 'viewer',
  lastUsedAt: '2026-11-20T10:15:00Z',
  lastUsedAddress: '203.0.113.9',
});
const EXPIRED = apiKey({ id: '6b031854dbdeac91e41b6403', name: 'old-sync', prefix: 'wmk_a1b2c3d4', status: 'expired' });
const REVOKED = apiKey({
  id: '6b031854dbdeac91e41b6404',
  name: 'leaked',
  prefix: 'wmk_z9y8x7w6',
  role: 'admin',
  status: 'revoked',
  revokedAt: '2026-11-21T09:00:00Z',
});

const render = (role = 'admin') =>
  renderWithProviders(<><NavList /><ApiKeysPage /></>, { route: '/admin/api-keys', preloadedState: { session: { ...signedInSession(), role } } });

const row = (key: { id: string }) => screen.getByTestId(`api-key-${key.id}`);

async function openNewKey() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'New API key' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'New API key' }) };
}

describe('the API keys screen', () => {
  it('lists each key with its prefix, role, status, expiry, last use and creation, and explains how to use one', async () => {
    serveApiKeys([apiKey(), USED, EXPIRED, REVOKED]);
    render();
    expect(screen.getByRole('heading', { level: 1, name: 'API keys' })).toBeInTheDocument();
    const links = screen.getAllByRole('link');
    expect(links.slice(-3).map((link) => link.textContent)).toEqual(['Users', 'Audit trail', 'API keys']);
    expect(screen.getByRole('link', { name: 'API keys' })).toHaveAttribute('href', '/admin/api-keys');
    expect(screen.getByText('Authorization: Bearer <key>')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Name', 'Key', 'Role', 'Status', 'Expires', 'Last used', 'Created', 'Actions',
    ]);

    const unused = row(apiKey());
    expect(within(unused).getByText('ci-deploy')).toBeInTheDocument();
    expect(within(unused).getByText('wmk_3fq8k2ma')).toBeInTheDocument();
    expect(within(unused).getByText('Operator')).toBeInTheDocument();
    expect(within(unused).getByText('Active')).toBeInTheDocument();
    expect(within(unused).getByText('Never')).toBeInTheDocument();
    expect(within(unused).getByText(/^01-02-27, \d\d:\d\d$/)).toBeInTheDocument();
    expect(within(unused).getByText(/^02-11-26, \d\d:\d\d by alice$/)).toBeInTheDocument();
    expect(within(unused).getByRole('button', { name: 'Revoke ci-deploy' })).toBeEnabled();

    expect(within(row(USED)).getByText(/^20-11-26, \d\d:\d\d from 203\.0\.113\.9$/)).toBeInTheDocument();
    expect(within(row(EXPIRED)).getByText('Expired')).toBeInTheDocument();
    expect(within(row(EXPIRED)).getByRole('button', { name: 'Revoke old-sync' })).toBeEnabled();
    expect(within(row(REVOKED)).getByText('Revoked')).toBeInTheDocument();
    expect(within(row(REVOKED)).getByRole('button', { name: 'Revoke leaked' })).toBeDisabled();
  });

  it('says when there is no key yet', async () => {
    serveApiKeys([]);
    render();
    expect(await screen.findByText('No API key yet')).toBeInTheDocument();
  });

  it('creates a key and shows its secret once, with a copy button and a warning, then never again', async () => {
    const served = serveApiKeys([apiKey()]);
    render();
    await screen.findByTestId(`api-key-${apiKey().id}`);
    const { user, dialog } = await openNewKey();
    expect(within(dialog).getByRole('radio', { name: '90 days' })).toBeChecked();

    await user.type(within(dialog).getByLabelText(/^Name/), '  meter-import ');
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Operator' }));
    await user.click(within(dialog).getByRole('radio', { name: '30 days' }));
    const before = Date.now();
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const shown = await screen.findByRole('dialog', { name: 'API key meter-import' });
    const body = served.changes[0]?.body as { name: string; role: string; expiresAt: string };
    expect(body).toMatchObject({ name: 'meter-import', role: 'operator' });
    const expiresIn = Date.parse(body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(30 * DAY_MS);
    expect(expiresIn).toBeLessThan(30 * DAY_MS + 60_000);
    expect(within(shown).getByText('This key is shown only once. Copy it now: it cannot be shown again.')).toBeInTheDocument();
    expect(within(shown).getByLabelText('API key')).toHaveValue(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Copy the key' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(await screen.findByText('The key was copied')).toBeInTheDocument();

    // A click beside the dialog does not lose the secret.
    fireEvent.click(document.querySelector('.MuiBackdrop-root') ?? document.body);
    expect(screen.getByRole('dialog', { name: 'API key meter-import' })).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(screen.queryByText(SECRET)).toBeNull();
    expect(await screen.findByTestId('api-key-new-meter-import')).toHaveTextContent('wmk_9zx7c6vb');
  });

  it('expires a key at the start of a custom day, and checks the name and the day first', async () => {
    const served = serveApiKeys([]);
    render();
    const { user, dialog } = await openNewKey();
    await user.click(within(dialog).getByRole('radio', { name: 'On a date' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByLabelText(/^Name/)).toHaveAccessibleDescription('The name must be 1 to 100 characters');
    expect(within(dialog).getByLabelText(/^Expiry date/)).toHaveAccessibleDescription(
      'The expiry must be a day from tomorrow to 730 days ahead',
    );
    expect(served.changes).toEqual([]);

    const day = localDateInput(new Date(Date.now() + 10 * DAY_MS));
    await user.type(within(dialog).getByLabelText(/^Name/), 'nightly');
    fireEvent.change(within(dialog).getByLabelText(/^Expiry date/), { target: { value: day } });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    await screen.findByRole('dialog', { name: 'API key nightly' });
    expect(served.changes[0]?.body).toEqual({ name: 'nightly', role: 'viewer', expiresAt: startOfLocalDay(day)?.toISOString() });
  });

  it("shows the server's refusals: each field's under it, any other as an alert", async () => {
    let answer = HttpResponse.json(
      {
        code: 'validation_failed',
        message: 'Invalid input',
        fields: { name: 'the name must be 1 to 100 characters', expiresAt: 'the expiry must be in the future, at most 730 days ahead' },
      },
      { status: 400 },
    );
    serveApiKeys([], () => answer);
    render();
    const { user, dialog } = await openNewKey();
    await user.type(within(dialog).getByLabelText(/^Name/), 'clock-skewed');

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => {
      expect(within(dialog).getByLabelText(/^Name/)).toHaveAccessibleDescription('The name must be 1 to 100 characters');
    });
    expect(within(dialog).getByText('The expiry must be a day from tomorrow to 730 days ahead')).toBeInTheDocument();

    answer = HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The change failed. Please try again.');
    expect(screen.queryByRole('dialog', { name: /^API key / })).toBeNull();
  });

  it('revokes a key once confirmed, and not when cancelled', async () => {
    const served = serveApiKeys([apiKey()]);
    render();
    const user = userEvent.setup();
    const revoke = await screen.findByRole('button', { name: 'Revoke ci-deploy' });

    await user.click(revoke);
    const question = await screen.findByRole('dialog', { name: 'Revoke the API key ci-deploy?' });
    expect(question).toHaveTextContent('Programs that use ci-deploy (wmk_3fq8k2ma…) are refused at once.');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(served.changes).toEqual([]);

    await user.click(revoke);
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke the API key ci-deploy?' })).getByRole('button', { name: 'Revoke' }));

    expect(await screen.findByText('The API key ci-deploy was revoked')).toBeInTheDocument();
    expect(served.changes).toEqual([{ method: 'POST', path: `/api/admin/api-keys/${apiKey().id}/revoke`, body: null }]);
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    await waitFor(() => { expect(within(row(apiKey())).getByText('Revoked')).toBeInTheDocument(); });
    expect(within(row(apiKey())).getByRole('button', { name: 'Revoke ci-deploy' })).toBeDisabled();
  });

  it('says so when the key to revoke no longer exists', async () => {
    serveApiKeys([apiKey()], () => HttpResponse.json({ code: 'not_found', message: 'no such key' }, { status: 404 }));
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke ci-deploy' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke the API key ci-deploy?' })).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This API key no longer exists');
  });

  it('tells another role it may not manage API keys, offers no menu entry, and asks the server nothing', async () => {
    const served = serveApiKeys([apiKey()]);
    render('operator');
    expect(screen.getByText('Only admins can manage API keys. Your role does not allow it.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'API keys' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'New API key' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served.reads).toBe(0);
  });

  it('tells an admin demoted on the server that it may not, when the list is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/admin/api-keys', () => HttpResponse.json({ code: 'forbidden', message: 'no' }, { status: 403 })));
    render();
    expect(await screen.findByText('Only admins can manage API keys. Your role does not allow it.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New API key' })).toBeNull();
  });
});
