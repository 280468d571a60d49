import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { localDateTimeInput } from '../../../lib/local-date-time.ts';
import { catchDownloads, csvFile } from '../../../testing/downloads.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { fakeToken, signedInSession } from '../../../testing/tokens.ts';
import { json, meters } from '../testing/fixtures.ts';
import MetersPage from './meters-page.tsx';

const NAME = 'meter-index-2026-11-30T23-00Z.csv';
const CSV = 'meter_id,serial_number,device_name,index_litres,as_of\r\n';

/** The list, and the export answered by `answer`; returns the export requests. */
function serve(answer: () => Response | Promise<Response>) {
  const requests: Request[] = [];
  server.use(
    http.get('/api/proxy/wmeters/count', () => json({ count: 2 })),
    http.get('/api/proxy/wmeters', () => json(meters(2))),
    http.get('/api/exports/meter-index', ({ request }) => {
      requests.push(request);
      return answer();
    }),
  );
  return requests;
}

const render = (role = 'admin', token = fakeToken()) =>
  renderWithProviders(<MetersPage />, { preloadedState: { session: { ...signedInSession(token), role } } });

async function openDialog() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Export' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Billing export…' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Billing export' }) };
}

describe('the billing export', () => {
  it('keeps the title as the spec words it, the Export menu beside it', async () => {
    serve(() => csvFile(NAME, CSV));
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Water Meters (2)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toHaveAttribute('aria-haspopup', 'menu');
  });

  it('starts at now, sends the instant chosen in ISO and the filter, with the token, and saves the server\'s file', async () => {
    const requests = serve(() => csvFile(NAME, CSV));
    const saved = catchDownloads();
    const token = fakeToken();
    render('viewer', token);
    const before = localDateTimeInput(new Date());
    const { user, dialog } = await openDialog();

    const at = within(dialog).getByLabelText(/Date and time/);
    expect([before, localDateTimeInput(new Date())]).toContain((at as HTMLInputElement).value);
    fireEvent.change(at, { target: { value: '2026-11-30T23:00' } });
    await user.type(within(dialog).getByLabelText('Filter (optional)'), ' north ');
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));

    await waitFor(() => { expect(saved.map((file) => file.name)).toEqual([NAME]); });
    expect(await saved[0]?.blob?.text()).toBe(CSV);
    const params = Object.fromEntries(new URL(requests[0]?.url ?? '').searchParams);
    expect(params).toEqual({ at: new Date(2026, 10, 30, 23, 0).toISOString(), q: 'north' });
    expect(requests[0]?.headers.get('Authorization')).toBe(`Bearer ${token}`);
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
  });

  it('sends no filter when none is given, and shows its progress', async () => {
    // The answer waits until the test has seen the progress, however slow
    // the machine.
    let answer: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => { answer = resolve; });
    const requests = serve(async () => {
      await answered;
      return csvFile(NAME, CSV);
    });
    const saved = catchDownloads();
    render();
    const { user, dialog } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByRole('button', { name: /Downloading…/ })).toBeDisabled();
    answer?.();
    await waitFor(() => { expect(saved).toHaveLength(1); });
    const params = new URL(requests[0]?.url ?? '').searchParams;
    expect([...params.keys()]).toEqual(['at']);
    expect(Math.abs(Date.parse(params.get('at') ?? '') - Date.now())).toBeLessThan(120_000);
  });

  it('says so when the export fails, and stays open to try again', async () => {
    serve(() => HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 }));
    const saved = catchDownloads();
    render();
    const { user, dialog } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByText('The billing export failed. Please try again.')).toBeInTheDocument();
    expect(saved).toHaveLength(0);
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeEnabled();
  });

  it('asks for a date and time when the field is cleared, and sends nothing', async () => {
    const requests = serve(() => csvFile(NAME, CSV));
    render();
    const { user, dialog } = await openDialog();

    fireEvent.change(within(dialog).getByLabelText(/Date and time/), { target: { value: '' } });
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await within(dialog).findByText('Enter a date and time')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });
});
