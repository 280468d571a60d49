import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { catchDownloads } from '../../../testing/downloads.ts';
import { nth } from '../../../testing/nth.ts';
import { GATEWAY_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import GatewayDetailPage from '../../gateways/components/gateway-detail-page.tsx';
import { serveGateway } from '../../gateways/testing/gateway-fixtures.ts';
import {
  CA_CERTIFICATE,
  CERTIFICATE,
  credential,
  FINGERPRINT,
  PRIVATE_KEY,
  SECRET,
  serveCredentials,
  USERNAME,
} from '../testing/credential-fixtures.ts';
import { GatewayCredentialsSection } from './gateway-credentials-section.tsx';

const ACTIVE_SECRET = credential();
const REVOKED_SECRET = credential({ id: '6b031854dbdeac91e41b6502', createdAt: '2026-10-01T08:00:00Z', revokedAt: '2026-11-02T08:00:00Z' });
const EXPIRED_CERTIFICATE = credential({
  id: '6b031854dbdeac91e41b6503',
  kind: 'certificate',
  fingerprint: 'sha256:0f1e2d3c4b5a',
  createdAt: '2025-09-01T08:00:00Z',
  expiresAt: '2026-09-01T08:00:00Z',
});
const ACTIVE_CERTIFICATE = credential({
  id: '6b031854dbdeac91e41b6504',
  kind: 'certificate',
  fingerprint: FINGERPRINT,
  createdAt: '2026-10-15T08:00:00Z',
  expiresAt: '2099-10-15T08:00:00Z',
});

const as = (role: string) => ({ preloadedState: { session: { ...signedInSession(), role } } });
const render = (role = 'operator') => renderWithProviders(<GatewayCredentialsSection gatewayId={GATEWAY_ID} />, as(role));
const row = (one: { id: string }) => screen.getByTestId(`credential-${one.id}`);
const DATE = /^\d\d-\d\d-\d\d, \d\d:\d\d$/;

describe("a gateway's MQTT credentials", () => {
  it('lists each with its kind, username, fingerprint, times and status, and offers Revoke on the active ones', async () => {
    serveCredentials([ACTIVE_SECRET, ACTIVE_CERTIFICATE, REVOKED_SECRET, EXPIRED_CERTIFICATE]);
    render();
    expect(screen.getByRole('heading', { level: 2, name: 'MQTT credentials' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'MQTT credentials' });
    expect(
      screen.getByText('Each gateway signs in to the MQTT broker with its own credentials. A secret or a private key is shown only once.'),
    ).toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Kind', 'Username', 'Fingerprint', 'Created', 'Expires', 'Status', 'Actions',
    ]);
    expect(within(table).getAllByRole('row').slice(1).map((one) => one.getAttribute('data-testid'))).toEqual(
      [ACTIVE_SECRET, ACTIVE_CERTIFICATE, REVOKED_SECRET, EXPIRED_CERTIFICATE].map(({ id }) => `credential-${id}`),
    );

    const cells = (one: { id: string }) => within(row(one)).getAllByRole('cell').map((cell) => cell.textContent);
    const [kind, username, fingerprint, created, expires, status] = cells(ACTIVE_SECRET);
    expect([kind, username, fingerprint, expires, status]).toEqual(['Secret', USERNAME, '—', '—', 'Active']);
    expect(created).toMatch(DATE);
    expect(within(row(ACTIVE_SECRET)).getByRole('button', { name: /^Revoke the secret created \d\d-\d\d-\d\d, \d\d:\d\d$/ })).toBeEnabled();

    expect(cells(ACTIVE_CERTIFICATE).slice(0, 3)).toEqual(['Certificate', USERNAME, FINGERPRINT]);
    expect(nth(cells(ACTIVE_CERTIFICATE), 4)).toMatch(/^15-10-99, \d\d:\d\d$/);
    expect(nth(cells(ACTIVE_CERTIFICATE), 5)).toBe('Active');
    expect(within(row(ACTIVE_CERTIFICATE)).getByRole('button', { name: /^Revoke the certificate created / })).toBeEnabled();

    expect(nth(cells(REVOKED_SECRET), 5)).toBe('Revoked');
    expect(within(row(REVOKED_SECRET)).queryByRole('button')).toBeNull();
    expect(nth(cells(EXPIRED_CERTIFICATE), 4)).toMatch(/^01-09-26, \d\d:\d\d$/);
    expect(nth(cells(EXPIRED_CERTIFICATE), 5)).toBe('Expired');
    expect(within(row(EXPIRED_CERTIFICATE)).queryByRole('button')).toBeNull();
  });

  it('says when the gateway has none yet, and offers to issue each kind', async () => {
    serveCredentials([]);
    render();
    expect(await screen.findByText('This gateway has no MQTT credentials yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Issue secret' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Issue certificate' })).toBeEnabled();
  });

  it('issues a secret at once and shows it once, beside the username, each with a copy button, then never again', async () => {
    const served = serveCredentials([REVOKED_SECRET]);
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Issue secret' }));

    const shown = await screen.findByRole('dialog', { name: `MQTT secret for ${USERNAME}` });
    expect(served.changes).toEqual([{ method: 'POST', path: `/api/devices/gateways/${GATEWAY_ID}/credentials`, body: { kind: 'secret' } }]);
    expect(within(shown).getByText('This secret is shown only once. Copy it now: it cannot be shown again.')).toBeInTheDocument();
    expect(within(shown).getByLabelText('Username')).toHaveValue(USERNAME);
    expect(within(shown).getByLabelText('Secret')).toHaveValue(SECRET);
    await user.click(within(shown).getByRole('button', { name: 'Copy the username' }));
    expect(await navigator.clipboard.readText()).toBe(USERNAME);
    await user.click(within(shown).getByRole('button', { name: 'Copy the secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(await screen.findByText('The secret was copied')).toBeInTheDocument();

    // A click beside the dialog does not lose the secret.
    fireEvent.click(document.querySelector('.MuiBackdrop-root') ?? document.body);
    expect(screen.getByRole('dialog', { name: `MQTT secret for ${USERNAME}` })).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(screen.queryByText(SECRET)).toBeNull();
    expect(await screen.findByRole('button', { name: 'Rotate secret' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'MQTT credentials' })).getAllByText('Active')).toHaveLength(1);
  });

  it('reads Rotate secret while a secret is active, and rotates it only once confirmed', async () => {
    const served = serveCredentials([ACTIVE_SECRET, EXPIRED_CERTIFICATE]);
    render();
    const user = userEvent.setup();
    const rotate = await screen.findByRole('button', { name: 'Rotate secret' });
    expect(screen.queryByRole('button', { name: 'Issue secret' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Issue certificate' })).toBeInTheDocument();

    await user.click(rotate);
    const question = await screen.findByRole('dialog', { name: 'Rotate the secret?' });
    expect(question).toHaveAccessibleDescription('The current one stops working at once.');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(served.changes).toEqual([]);

    await user.click(rotate);
    await user.click(within(await screen.findByRole('dialog', { name: 'Rotate the secret?' })).getByRole('button', { name: 'Rotate' }));
    const shown = await screen.findByRole('dialog', { name: `MQTT secret for ${USERNAME}` });
    expect(served.changes.map((change) => change.body)).toEqual([{ kind: 'secret' }]);
    expect(screen.queryByRole('dialog', { name: 'Rotate the secret?' })).toBeNull();
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => { expect(within(row(ACTIVE_SECRET)).getByText('Revoked')).toBeInTheDocument(); });
  });

  it('issues a certificate and offers its certificate, private key and CA certificate as files, once', async () => {
    const served = serveCredentials([]);
    render();
    const saved = catchDownloads();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Issue certificate' }));

    const shown = await screen.findByRole('dialog', { name: `MQTT certificate for ${USERNAME}` });
    expect(served.changes.map((change) => change.body)).toEqual([{ kind: 'certificate' }]);
    expect(within(shown).getByText('The private key is shown only once. Download it now: it cannot be shown again.')).toBeInTheDocument();
    for (const name of ['Download certificate', 'Download private key', 'Download CA certificate']) {
      await user.click(within(shown).getByRole('button', { name }));
    }
    expect(saved.map((file) => file.name)).toEqual([`${USERNAME}.crt`, `${USERNAME}.key`, 'wmeter-ca.crt']);
    expect(await Promise.all(saved.map(async (file) => file.blob?.text()))).toEqual([CERTIFICATE, PRIVATE_KEY, CA_CERTIFICATE]);

    fireEvent.click(document.querySelector('.MuiBackdrop-root') ?? document.body);
    expect(screen.getByRole('dialog', { name: `MQTT certificate for ${USERNAME}` })).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(await screen.findByRole('button', { name: 'Rotate certificate' })).toBeInTheDocument();
    expect(screen.getByText(FINGERPRINT)).toBeInTheDocument();
  });

  it('asks before a certificate is rotated', async () => {
    serveCredentials([ACTIVE_CERTIFICATE]);
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rotate certificate' }));
    const question = await screen.findByRole('dialog', { name: 'Rotate the certificate?' });
    expect(question).toHaveAccessibleDescription('The current one stops working at once.');
    await user.click(within(question).getByRole('button', { name: 'Rotate' }));
    expect(await screen.findByRole('dialog', { name: `MQTT certificate for ${USERNAME}` })).toBeInTheDocument();
  });

  it('revokes a credential once confirmed, and not when cancelled, then reads the list again', async () => {
    const served = serveCredentials([ACTIVE_SECRET]);
    render();
    const user = userEvent.setup();
    const revoke = await screen.findByRole('button', { name: /^Revoke the secret created / });

    await user.click(revoke);
    const question = await screen.findByRole('dialog', { name: 'Revoke this credential?' });
    expect(question).toHaveAccessibleDescription('The gateway can no longer sign in with it, and its open connection is closed.');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(served.changes).toEqual([]);

    const reads = served.reads;
    await user.click(revoke);
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke this credential?' })).getByRole('button', { name: 'Revoke' }));

    expect(await screen.findByText('The credential was revoked')).toBeInTheDocument();
    expect(served.changes).toEqual([
      { method: 'POST', path: `/api/devices/gateways/${GATEWAY_ID}/credentials/${ACTIVE_SECRET.id}/revoke`, body: null },
    ]);
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    await waitFor(() => { expect(within(row(ACTIVE_SECRET)).getByText('Revoked')).toBeInTheDocument(); });
    expect(served.reads).toBeGreaterThan(reads);
    expect(within(row(ACTIVE_SECRET)).queryByRole('button')).toBeNull();
    expect(screen.getByRole('button', { name: 'Issue secret' })).toBeInTheDocument();
  });

  it("shows the server's refusals as the section's alert", async () => {
    let answer = HttpResponse.json({ code: 'not_found', message: 'no such credential' }, { status: 404 });
    serveCredentials([ACTIVE_SECRET], () => answer);
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Revoke the secret created / }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke this credential?' })).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This gateway or credential no longer exists');
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Close' }));
    await waitFor(() => { expect(screen.queryByRole('alert')).toBeNull(); });

    answer = HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 });
    await user.click(screen.getByRole('button', { name: 'Issue certificate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The change failed. Please try again.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says so when the list cannot be loaded, and offers no issue', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get(`/api/devices/gateways/${GATEWAY_ID}/credentials`, () => HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 })));
    render();
    expect(await screen.findByText('The MQTT credentials could not be loaded. Please try again.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Issue / })).toBeNull();
  });
});

describe('the MQTT credentials on the gateway page', () => {

  const open = (role: string) =>
    renderWithProviders(<GatewayDetailPage />, { route: `/gateways/${GATEWAY_ID}`, path: '/gateways/:gatewayId', ...as(role) });

  it.each(['operator', 'admin'])('are shown to an %s', async (role) => {
    serveGateway();
    serveCredentials([ACTIVE_SECRET]);
    open(role);
    expect(await screen.findByRole('heading', { level: 2, name: 'MQTT credentials' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Rotate secret' })).toBeInTheDocument();
  });

  it('are neither shown to a viewer nor asked of the server', async () => {
    serveGateway();
    const served = serveCredentials([ACTIVE_SECRET]);
    open('viewer');
    await screen.findByText('Device Id', { selector: 'dt' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'MQTT credentials' })).toBeNull();
    expect(screen.queryByRole('button', { name: /secret|certificate/ })).toBeNull();
    expect(served.reads).toBe(0);
  });

  it('are not shown to a viewer given the section alone either', async () => {
    const served = serveCredentials([ACTIVE_SECRET]);
    render('viewer');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(served.reads).toBe(0);
  });
});
