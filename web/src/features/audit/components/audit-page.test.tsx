import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { NavList } from '../../../app/shell/nav-list.tsx';
import { catchDownloads } from '../../../testing/downloads.ts';
import { nth } from '../../../testing/nth.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { fakeToken, signedInSession } from '../../../testing/tokens.ts';
import { auditEntries, auditEntry, BOB_ID, EXPORT_NAME, METER_ID, serveAudit } from '../testing/audit-fixtures.ts';
import AuditPage from './audit-page.tsx';

const render = (route = '/admin/audit', role = 'admin', token = fakeToken()) =>
  renderWithProviders(<AuditPage />, { route, path: '/admin/audit', preloadedState: { session: { ...signedInSession(token), role } } });

const grid = () => screen.getByRole('grid', { name: 'Audit entries' });
const rows = () => within(grid()).getAllByRole('row').slice(1);
const location = () => screen.getByTestId('location').textContent;

describe('the Audit trail screen', () => {
  it('shows the entries of the page the server sends, and opens one with its before and after', async () => {
    serveAudit([
      auditEntry(),
      auditEntry({
        id: 'e2',
        actor: 'cli',
        username: null,
        role: 'operator',
        sourceIp: '',
        action: 'user.disable',
        target: BOB_ID,
        before: { username: 'bob', disabled: false },
        after: null,
        outcome: 'last_admin',
        detail: 'The last enabled admin cannot be disabled',
      }),
    ]);
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit trail' })).toBeInTheDocument();
    await waitFor(() => { expect(rows()).toHaveLength(2); });
    expect(within(grid()).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Time', 'Actor', 'Role', 'Action', 'Target', 'Outcome', 'Source IP', 'Detail',
    ]);

    const edit = nth(rows(), 0);
    expect(within(edit).getByText(/^\d{2}-\d{2}-\d{2}, \d{2}:\d{2}$/)).toBeInTheDocument();
    expect(within(edit).getByText('alice')).toBeInTheDocument();
    expect(within(edit).getByText('Admin')).toBeInTheDocument();
    expect(within(edit).getByText('meter.edit')).toBeInTheDocument();
    expect(within(edit).getByRole('link', { name: METER_ID })).toHaveAttribute('href', `/water-meters/${METER_ID}`);
    expect(within(edit).getByText('OK')).toBeInTheDocument();
    expect(within(edit).getByText('192.0.2.10')).toBeInTheDocument();

    const refused = nth(rows(), 1);
    expect(within(refused).getByText('cli')).toBeInTheDocument();
    expect(within(refused).getByText('Operator')).toBeInTheDocument();
    // A user's id is no device: plain text.
    expect(within(refused).getByText(BOB_ID)).toBeInTheDocument();
    expect(within(refused).queryByRole('link')).toBeNull();
    expect(within(refused).getByText('Refused: last_admin')).toBeInTheDocument();
    expect(within(refused).getByText('The last enabled admin cannot be disabled')).toBeInTheDocument();

    await userEvent.click(within(refused).getByText('user.disable'));
    const dialog = await screen.findByRole('dialog', { name: /^user\.disable, / });
    expect(within(dialog).getByRole('heading', { name: 'Before' }).nextElementSibling?.textContent).toBe(
      JSON.stringify({ username: 'bob', disabled: false }, null, 2),
    );
    expect(within(dialog).getByRole('heading', { name: 'After' }).nextElementSibling).toHaveTextContent('None');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
  });

  it('opens an entry from the keyboard', async () => {
    serveAudit([auditEntry()]);
    render();
    const cell = await within(await screen.findByRole('grid', { name: 'Audit entries' })).findByRole('gridcell', { name: 'meter.edit' });
    cell.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /^meter\.edit, / });
    expect(within(dialog).getByText(/"lat": 48.86/)).toBeInTheDocument();
  });

  it('sends a typed filter to the server once the typing stops, from page 1, and keeps it in the URL', async () => {
    const served = serveAudit(auditEntries(60));
    render('/admin/audit?page=3&max=25');
    await waitFor(() => { expect(rows()).toHaveLength(10); });
    expect(served.pages).toEqual([{ page: '3', max: '25' }]);

    await userEvent.type(screen.getByRole('textbox', { name: 'Actor' }), 'bob');
    await waitFor(() => { expect(served.pages.at(-1)).toEqual({ actor: 'bob', page: '1', max: '25' }); });
    expect(served.pages).toHaveLength(2);
    expect(location()).toBe('/admin/audit?max=25&actor=bob');
  });

  it('sends the outcome and the action, each from page 1', async () => {
    const served = serveAudit([auditEntry()]);
    render('/admin/audit?page=2');
    await waitFor(() => { expect(served.pages).toHaveLength(1); });
    const user = userEvent.setup();

    await user.click(screen.getByRole('combobox', { name: 'Outcome' }));
    await user.click(await screen.findByRole('option', { name: 'Refused' }));
    await waitFor(() => { expect(served.pages.at(-1)).toEqual({ outcome: 'refused', page: '1', max: '50' }); });

    await user.type(screen.getByRole('combobox', { name: /^Action/ }), 'user');
    await waitFor(() => { expect(served.pages.at(-1)).toEqual({ outcome: 'refused', action: 'user', page: '1', max: '50' }); });
    expect(location()).toBe('/admin/audit?outcome=refused&action=user');
  });

  it('sends a time as the instant it names, and clears every filter', async () => {
    const served = serveAudit([auditEntry()]);
    render('/admin/audit?actor=bob&page=2');
    await waitFor(() => { expect(served.pages).toHaveLength(1); });
    const user = userEvent.setup();

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01T08:00' } });
    await waitFor(() => { expect(served.pages.at(-1)).toEqual({ actor: 'bob', from: new Date(2026, 10, 1, 8, 0).toISOString(), page: '1', max: '50' }); });
    expect(location()).toContain('from=2026-11-01T');
    expect(screen.getByLabelText('From')).toHaveValue('2026-11-01T08:00');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => { expect(served.pages.at(-1)).toEqual({ page: '1', max: '50' }); });
    expect(location()).toBe('/admin/audit');
    expect(screen.getByRole('textbox', { name: 'Actor' })).toHaveValue('');
    expect(screen.getByLabelText('From')).toHaveValue('');
  });

  it('reads the filter of a link, and suggests the actions', async () => {
    const served = serveAudit([auditEntry({ action: 'user.create', target: BOB_ID })]);
    render('/admin/audit?actor=alice&action=user&outcome=forbidden&max=25');
    await waitFor(() => { expect(rows()).toHaveLength(1); });
    expect(served.pages).toEqual([{ actor: 'alice', action: 'user', outcome: 'forbidden', page: '1', max: '25' }]);
    expect(screen.getByRole('textbox', { name: 'Actor' })).toHaveValue('alice');
    expect(screen.getByRole('combobox', { name: 'Outcome' })).toHaveTextContent('Refused: forbidden');

    const action = screen.getByRole('combobox', { name: /^Action/ });
    expect(action).toHaveValue('user');
    await userEvent.clear(action);
    await userEvent.type(action, 'gate');
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'gateway', 'gateway.register', 'gateway.edit', 'gateway.delete',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'gateway.edit' }));
    await waitFor(() => { expect(served.pages.at(-1)).toMatchObject({ action: 'gateway.edit' }); });
  });

  it('asks the server for the next page', async () => {
    const served = serveAudit(auditEntries(35));
    render('/admin/audit?max=25');
    await waitFor(() => { expect(rows()).toHaveLength(25); });
    expect(screen.getByText('1–25 of 35')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => { expect(rows()).toHaveLength(10); });
    expect(served.pages).toEqual([{ page: '1', max: '25' }, { page: '2', max: '25' }]);
    expect(screen.getByText('26–35 of 35')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /next page/i })).toBeDisabled();
    expect(location()).toBe('/admin/audit?max=25&page=2');
  });

  it('asks for another page size from page 1', async () => {
    const served = serveAudit(auditEntries(30));
    render('/admin/audit?max=25&page=2');
    await waitFor(() => { expect(rows()).toHaveLength(5); });
    const user = userEvent.setup();

    // jsdom has no width: the grid's narrow-screen style hides the page size there.
    await user.click(screen.getByRole('combobox', { name: /rows per page/i, hidden: true }));
    await user.click(await screen.findByRole('option', { name: '100' }));
    await waitFor(() => { expect(served.pages.at(-1)).toEqual({ page: '1', max: '100' }); });
    expect(location()).toBe('/admin/audit?max=100');
  });

  it('downloads the CSV of the current filter, with the token, under the server\'s name', async () => {
    const served = serveAudit([auditEntry()]);
    const saved = catchDownloads();
    const token = fakeToken();
    render('/admin/audit?action=user&outcome=refused&page=2', 'admin', token);
    await waitFor(() => { expect(served.pages).toHaveLength(1); });

    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));

    await waitFor(() => { expect(saved.map((file) => file.name)).toEqual([EXPORT_NAME]); });
    const request = nth(served.exports, 0);
    expect(new URL(request.url).pathname).toBe('/api/audit/export');
    expect(Object.fromEntries(new URL(request.url).searchParams)).toEqual({ action: 'user', outcome: 'refused' });
    expect(request.headers.get('Authorization')).toBe(`Bearer ${token}`);
    expect(await nth(saved, 0).blob?.text()).toMatch(/^at,actor,username,role,source_ip,action,target,outcome,detail,before,after\r\n/);
  });

  it('says when no entry matches the filters', async () => {
    serveAudit([]);
    render('/admin/audit?action=valve');
    expect(await screen.findByText('No audit entries match these filters')).toBeInTheDocument();
  });

  it('shows the server\'s refusal of a time under its field', async () => {
    serveAudit([], () =>
      HttpResponse.json(
        { code: 'validation_failed', message: 'x', fields: { from: 'from must be an ISO 8601 date or date-time, not "soon"' } },
        { status: 400 },
      ),
    );
    render('/admin/audit?from=soon');
    expect(await screen.findByText('Enter a valid date and time')).toBeInTheDocument();
    expect(screen.getByLabelText('From')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('To (excluded)')).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByText('Correct the filters to see the entries')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when the trail could not be loaded', async () => {
    serveAudit([], () => HttpResponse.json({ code: 'internal', message: 'x' }, { status: 500 }));
    render();
    expect(await screen.findByRole('alert')).toHaveTextContent('The audit trail could not be loaded. Please try again.');
  });

  it('tells another role it may not read the trail, and asks the server nothing', async () => {
    const served = serveAudit([auditEntry()]);
    render('/admin/audit', 'operator');
    expect(screen.getByText('Only admins can read the audit trail. Your role does not allow it.')).toBeInTheDocument();
    expect(screen.queryByRole('grid')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served.pages).toEqual([]);
  });

  it('says the same when the server refuses', async () => {
    serveAudit([], () => HttpResponse.json({ code: 'forbidden', message: 'Your role does not allow this action' }, { status: 403 }));
    render();
    expect(await screen.findByText('Only admins can read the audit trail. Your role does not allow it.')).toBeInTheDocument();
  });
});

describe('the menu', () => {
  it('offers the Audit trail to admins, right after Users', () => {
    renderWithProviders(<NavList />);
    const links = screen.getAllByRole('link');
    expect(links.slice(-3).map((link) => link.textContent)).toEqual(['Users', 'Audit trail', 'API keys']);
    expect(nth(links, links.length - 2)).toHaveAttribute('href', '/admin/audit');
  });

  it('not to operators', () => {
    renderWithProviders(<NavList />, { preloadedState: { session: { ...signedInSession(), role: 'operator' } } });
    expect(screen.queryByRole('link', { name: 'Audit trail' })).toBeNull();
  });
});
