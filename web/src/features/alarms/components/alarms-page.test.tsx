import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { stubObjectUrls } from '../../../testing/downloads.ts';
import { nth } from '../../../testing/nth.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import type { Alarm } from '../api/alarm-types.ts';
import { ALARM_LIST_TAG, alarmsApi } from '../api/alarms-api.ts';
import { alarm, alarms, detail, OPERATOR } from '../testing/alarm-fixtures.ts';
import { emptyExtraReads } from '../../../testing/extra-reads.ts';
import AlarmsPage from './alarms-page.tsx';

/** Serves `all` in pages of `max`, the cursor being the next index; returns the list requests. */
function serveList(all: Alarm[]) {
  const requests: URL[] = [];
  // The first handler that matches answers: these, then the empty defaults.
  server.use(
    http.get('/api/alarms', ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      const max = Number(url.searchParams.get('max'));
      const from = Number(url.searchParams.get('after') ?? '0');
      const items = all.slice(from, from + max);
      return HttpResponse.json({ items, next: from + max < all.length ? String(from + max) : null });
    }),
    http.get('/api/alarms/assignees', () => HttpResponse.json([{ userId: OPERATOR.id, username: OPERATOR.name, role: 'operator' }])),
    ...emptyExtraReads(),
  );
  return requests;
}

const render = (route = '/alarms', role = 'admin') =>
  renderWithProviders(<AlarmsPage />, { route, path: '/alarms', preloadedState: { session: { ...signedInSession(), role } } });

const grid = () => screen.getByRole('grid', { name: 'Alarms' });
const last = (requests: URL[]) => Object.fromEntries(requests.at(-1)?.searchParams ?? []);

describe('the Alarms screen', () => {
  it('shows each alarm with its severity, status, type and device name', async () => {
    serveList([alarm(), alarm({ id: 'b'.repeat(24), severity: 'minor', status: 'acknowledged', type: 'low-battery', deviceName: 'W-SM00000002' })]);
    render();
    expect(await within(grid()).findByText('W-SM00000002')).toBeInTheDocument();
    const rows = within(grid()).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(nth(rows, 0)).getByText('Critical')).toBeInTheDocument();
    expect(within(nth(rows, 0)).getByText('Active')).toBeInTheDocument();
    expect(within(nth(rows, 0)).getByText('Leak')).toBeInTheDocument();
    expect(within(nth(rows, 0)).getByRole('link', { name: 'W-SM00000001' })).toHaveAttribute('href', '/water-meters/6b031854dbdeac91e41b633c');
    expect(within(nth(rows, 1)).getByText('Low battery')).toBeInTheDocument();
  });

  it('asks the server for the filter in the URL, and puts a new filter in the URL', async () => {
    const requests = serveList([alarm()]);
    const user = userEvent.setup();
    render('/alarms?status=active&severity=critical,major&type=leak');
    await within(grid()).findByText('W-SM00000001');
    expect(last(requests)).toEqual({ status: 'active', severity: 'critical,major', type: 'leak', sort: 'raisedAt', order: 'desc', max: '25' });

    await user.click(screen.getByRole('button', { name: 'Acknowledged' }));
    await waitFor(() => { expect(last(requests).status).toBe('active,acknowledged'); });
    expect(screen.getByTestId('location')).toHaveTextContent('status=active%2Cacknowledged');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => { expect(last(requests)).toEqual({ sort: 'raisedAt', order: 'desc', max: '25' }); });
  });

  it('pages forward with the server cursor and back without reading page one again by offset', async () => {
    const requests = serveList(alarms(30));
    const user = userEvent.setup();
    render();
    await waitFor(() => { expect(within(grid()).getAllByRole('row')).toHaveLength(26); });
    await user.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => { expect(within(grid()).getAllByRole('row')).toHaveLength(6); });
    expect(last(requests).after).toBe('25');
    expect(screen.getByRole('button', { name: /next page/i })).toBeDisabled();
    expect(screen.getByText('26–30 of 30')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /previous page/i }));
    await waitFor(() => { expect(within(grid()).getAllByRole('row')).toHaveLength(26); });
    expect(requests.every((url) => ['25', null].includes(url.searchParams.get('after')))).toBe(true);
  });

  it('keeps its rows, with no progress bar, while an alarm change refreshes it', async () => {
    serveList([alarm()]);
    const { store } = render();
    expect(await within(grid()).findByText('Active')).toBeInTheDocument();
    // The refresh is held until the rows have been looked at.
    let refreshed = false;
    let answer: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => { answer = resolve; });
    server.use(
      http.get('/api/alarms', async () => {
        refreshed = true;
        await answered;
        return HttpResponse.json({ items: [alarm({ status: 'acknowledged' })], next: null });
      }),
    );
    store.dispatch(alarmsApi.util.invalidateTags([ALARM_LIST_TAG]));
    await waitFor(() => { expect(refreshed).toBe(true); });
    expect(within(grid()).getByText('Active')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    answer?.();
    expect(await within(grid()).findByText('Acknowledged')).toBeInTheDocument();
  });

  it('sorts on the server by severity, and writes the order in the URL', async () => {
    const requests = serveList([alarm()]);
    const user = userEvent.setup();
    render();
    await within(grid()).findByText('W-SM00000001');
    await user.click(within(grid()).getByRole('columnheader', { name: /Severity/ }));
    await waitFor(() => { expect(last(requests)).toMatchObject({ sort: 'severity', order: 'desc' }); });
    expect(screen.getByTestId('location')).toHaveTextContent('sort=severity');
  });

  it('acknowledges the selected alarms at once, with a note', async () => {
    serveList(alarms(3));
    let body: unknown;
    server.use(
      http.post('/api/alarms/acknowledge', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ acknowledged: ['aaaaaaaaaaaaaaaaaaaaaaa0'], skipped: [{ id: 'aaaaaaaaaaaaaaaaaaaaaaa1', code: 'alarm_not_active', message: 'x' }] });
      }),
    );
    const user = userEvent.setup();
    render();
    await waitFor(() => { expect(within(grid()).getAllByRole('row')).toHaveLength(4); });
    const boxes = within(grid()).getAllByRole('checkbox', { name: /select row/i });
    await user.click(nth(boxes, 0));
    await user.click(nth(boxes, 1));
    await user.click(screen.getByRole('button', { name: 'Acknowledge selected (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acknowledge alarms' });
    await user.type(within(dialog).getByLabelText('Note (optional)'), 'crew sent');
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() => { expect(body).toEqual({ ids: ['aaaaaaaaaaaaaaaaaaaaaaa0', 'aaaaaaaaaaaaaaaaaaaaaaa1'], note: 'crew sent' }); });
    expect(await screen.findByText('Alarms acknowledged: 1. Not acknowledged, because they had changed: 1.')).toBeInTheDocument();
  });

  it('offers a viewer no selection and no acknowledge', async () => {
    serveList(alarms(2));
    render('/alarms', 'viewer');
    await waitFor(() => { expect(within(grid()).getAllByRole('row')).toHaveLength(3); });
    expect(within(grid()).queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Acknowledge selected/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
  });

  it('exports every alarm of the filter as CSV, page after page', async () => {
    const requests = serveList(alarms(3));
    const blobs: Blob[] = [];
    stubObjectUrls((blob: Blob) => { blobs.push(blob); return 'blob:alarms'; });
    const user = userEvent.setup();
    render('/alarms?status=active');
    await waitFor(() => { expect(within(grid()).getAllByRole('row')).toHaveLength(4); });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => { expect(blobs).toHaveLength(1); });
    expect(last(requests)).toMatchObject({ status: 'active', max: '500' });
    const lines = (await nth(blobs, 0).text()).trim().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^id,severity,status,type,/);
  });
});

describe('the alarm panel', () => {
  function serveAlarm(record = detail()) {
    serveList([record]);
    server.use(http.get(`/api/alarms/${record.id}`, () => HttpResponse.json(record)));
  }

  it('opens from a row and shows the history', async () => {
    serveAlarm(detail(alarm(), [{ id: 'e2', action: 'commented', actor: OPERATOR, note: 'valve checked', assignee: null, at: '2026-11-22T16:30:00Z' }]));
    const user = userEvent.setup();
    render();
    await user.click(await within(grid()).findByText('Leak'));
    const panel = await screen.findByRole('dialog');
    expect(screen.getByTestId('location')).toHaveTextContent('alarm=a1a1a1a1a1a1a1a1a1a1a1a1');
    const history = within(panel).getByTestId('alarm-history');
    expect(within(history).getByText(/^Raised, .* by GTW-SG01000003$/)).toBeInTheDocument();
    expect(within(history).getByText('valve checked')).toBeInTheDocument();
    const reporter = within(panel).getByText('Reported by', { selector: 'dt' });
    expect(reporter.nextElementSibling).toHaveTextContent('GTW-SG01000003');
  });

  it('acknowledges with a note, and says so', async () => {
    serveAlarm();
    let body: unknown;
    server.use(
      http.post('/api/alarms/:id/acknowledge', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(detail(alarm({ status: 'acknowledged' })));
      }),
    );
    const user = userEvent.setup();
    render('/alarms?alarm=a1a1a1a1a1a1a1a1a1a1a1a1');
    const panel = await screen.findByRole('dialog');
    await user.type(await within(panel).findByLabelText('Note (optional)'), 'on it');
    await user.click(within(panel).getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() => { expect(body).toEqual({ note: 'on it' }); });
    expect(await screen.findByText('Alarm acknowledged')).toBeInTheDocument();
  });

  it('words a refusal: someone acted first', async () => {
    serveAlarm();
    server.use(http.post('/api/alarms/:id/clear', () => HttpResponse.json({ code: 'alarm_not_open', message: 'x' }, { status: 409 })));
    const user = userEvent.setup();
    render('/alarms?alarm=a1a1a1a1a1a1a1a1a1a1a1a1');
    const panel = await screen.findByRole('dialog');
    await user.click(await within(panel).findByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('This alarm is already cleared or closed.')).toBeInTheDocument();
  });

  it('assigns to an operator', async () => {
    serveAlarm();
    let body: unknown;
    server.use(
      http.post('/api/alarms/:id/assign', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(detail(alarm({ assignee: OPERATOR })));
      }),
    );
    const user = userEvent.setup();
    render('/alarms?alarm=a1a1a1a1a1a1a1a1a1a1a1a1');
    const panel = await screen.findByRole('dialog');
    await user.click(await within(panel).findByRole('combobox', { name: 'Assign to' }));
    await user.click(await screen.findByRole('option', { name: 'olivia' }));
    await user.click(within(panel).getByRole('button', { name: 'Assign' }));
    await waitFor(() => { expect(body).toEqual({ assignee: OPERATOR.id }); });
  });

  it('offers a closed alarm only comments', async () => {
    serveAlarm(detail(alarm({ status: 'closed' })));
    render('/alarms?alarm=a1a1a1a1a1a1a1a1a1a1a1a1');
    const panel = await screen.findByRole('dialog');
    expect(await within(panel).findByRole('button', { name: 'Add comment' })).toBeInTheDocument();
    for (const name of ['Acknowledge', 'Clear', 'Close', 'Assign']) expect(within(panel).queryByRole('button', { name })).toBeNull();
  });

  it('offers a viewer the history but no action', async () => {
    serveAlarm();
    render('/alarms?alarm=a1a1a1a1a1a1a1a1a1a1a1a1', 'viewer');
    const panel = await screen.findByRole('dialog');
    await within(panel).findByTestId('alarm-history');
    expect(within(panel).queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(within(panel).queryByLabelText('Add a comment')).toBeNull();
  });
});

describe('the grid preferences', () => {
  it('keeps the density and the shown columns for the next visit', async () => {
    serveList([alarm()]);
    const user = userEvent.setup();
    const { unmount } = render();
    await within(grid()).findByText('W-SM00000001');
    expect(within(grid()).queryByRole('columnheader', { name: 'Alarm id' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Density' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Compact' }));
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Alarm id' }));
    expect(await within(grid()).findByRole('columnheader', { name: 'Alarm id' })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('wm.alarms.grid') ?? '{}')).toMatchObject({ density: 'compact', columns: { id: true } });

    unmount();
    render();
    await within(grid()).findByText('W-SM00000001');
    expect(within(grid()).getByRole('columnheader', { name: 'Alarm id' })).toBeInTheDocument();
  });

  it('falls back to the defaults when what is stored is not valid', async () => {
    localStorage.setItem('wm.alarms.grid', '{"density":"tiny","pageSize":7,"columns":{"id":"yes"}}');
    const requests = serveList([alarm()]);
    render();
    await within(grid()).findByText('W-SM00000001');
    expect(last(requests).max).toBe('25');
    expect(within(grid()).queryByRole('columnheader', { name: 'Alarm id' })).toBeNull();
  });
});
