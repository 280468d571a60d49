import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import type { Gateway } from '../../../lib/types.ts';
import { catchDownloads, csvFile } from '../../../testing/downloads.ts';
import { server } from '../../../testing/msw-server.ts';
import { gateway } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import GatewaysPage from './gateways-page.tsx';

const hex = (n: number) => n.toString(16).padStart(24, '0');

function page(count: number, from = 0): Gateway[] {
  return Array.from({ length: count }, (_, i) =>
    gateway({
      _id: hex(from + i + 1),
      deviceName: `Gateway ${String(from + i)}`,
      registeredAt: new Date(Date.UTC(2026, 0, 20, 0, 0, 59 - from - i)).toISOString(),
    }),
  );
}

function serveList(lists: (url: URL) => Gateway[] | Promise<Gateway[]>, total = 42) {
  const requests: URL[] = [];
  server.use(
    http.get('/api/proxy/gateways/count', () => HttpResponse.json({ count: total })),
    http.get('/api/proxy/gateways', async ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      return HttpResponse.json(await lists(url));
    }),
  );
  return requests;
}

describe('GatewaysPage', () => {
  it('shows the total and a card per gateway, with fallbacks', async () => {
    serveList(() => [
      gateway({ deviceName: 'North tower', isOnline: true }),
      gateway({ _id: hex(9), deviceName: '', serialNumber: 'SG01000009', lastseen: null, isOnline: false, waterMetersCount: 0 }),
    ]);
    renderWithProviders(<GatewaysPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Gateways (42)' })).toBeInTheDocument();
    const north = (await screen.findByRole('heading', { name: 'North tower' })).closest('article');
    const fallback = screen.getByRole('heading', { name: 'GTW-SG01000009' }).closest('article');
    if (!north || !fallback) throw new Error('cards not found');

    expect(within(north).getByRole('img', { name: 'Online' })).toHaveAttribute('data-colour', 'green');
    expect(within(north).getByText('IMEI:')).toHaveTextContent('IMEI: 350010000000003');
    expect(within(north).getByText('BLE Address:')).toHaveTextContent('BLE Address: 5A:01:00:00:03:01');
    expect(within(north).getByText('Water Meters:')).toHaveTextContent('Water Meters: 5');
    expect(within(north).getByRole('link')).toHaveAttribute('href', '/gateways/6b031854dbdeac91e41b6334');

    expect(within(fallback).getByRole('img', { name: 'Offline' })).toHaveAttribute('data-colour', 'gray');
    expect(within(fallback).getByText('Last Seen:')).toHaveTextContent('Last Seen: Never');
    expect(screen.getByTestId('list-counter')).toHaveTextContent('2 of 42');
  });

  it('shows a spinner while the first page loads', async () => {
    serveList(async () => {
      await delay('infinite');
      return [];
    });
    renderWithProviders(<GatewaysPage />);
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
  });

  it('says so when there is no gateway', async () => {
    const requests = serveList(() => [], 0);
    renderWithProviders(<GatewaysPage />);
    expect(await screen.findByText('No gateway found')).toBeInTheDocument();
    expect(requests[0]?.searchParams.get('max')).toBe('20');
    expect(requests[0]?.searchParams.has('start')).toBe(false);
  });

  it('only logs a failed load and shows an empty list', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/proxy/gateways/count', () => HttpResponse.json({ count: 3 })),
      http.get('/api/proxy/gateways', () => HttpResponse.json({ code: 'boom' }, { status: 500 })),
    );
    renderWithProviders(<GatewaysPage />);
    expect(await screen.findByText('No gateway found')).toBeInTheDocument();
    expect(logged).toHaveBeenCalled();
  });

  it('loads older gateways with Load More and updates the counter', async () => {
    const requests = serveList((url) => (url.searchParams.has('start') ? page(1, 20) : page(20)));
    renderWithProviders(<GatewaysPage />);
    await screen.findByRole('heading', { name: 'Gateway 19' });
    expect(screen.getByTestId('list-counter')).toHaveTextContent('20 of 42');

    await userEvent.click(screen.getByRole('button', { name: 'Load More' }));
    expect(await screen.findByRole('heading', { name: 'Gateway 20' })).toBeInTheDocument();

    const more = requests[1]?.searchParams;
    expect(more?.get('max')).toBe('20');
    expect(more?.get('reverse')).toBe('true');
    expect(more?.get('start')).toBe(page(20)[19]?.registeredAt);
    await waitFor(() => { expect(screen.getByTestId('list-counter')).toHaveTextContent('21 of 42'); });
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
  });

  it('offers a viewer Export CSV of every gateway, but not Import CSV', async () => {
    serveList(() => page(2));
    const exports: URL[] = [];
    server.use(
      http.get('/api/devices/export/gateways', ({ request }) => {
        exports.push(new URL(request.url));
        return csvFile('gateways.csv', 'serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude\r\n');
      }),
    );
    const saved = catchDownloads();
    renderWithProviders(<GatewaysPage />, { preloadedState: { session: { ...signedInSession(), role: 'viewer' } } });
    await screen.findByRole('heading', { name: 'Gateway 1' });

    expect(screen.queryByRole('button', { name: 'Import CSV' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => { expect(saved.map((file) => file.name)).toEqual(['gateways.csv']); });
    expect(exports.map((url) => url.search)).toEqual(['']);
  });

  it('lets an operator import gateways, then lists them again', async () => {
    let imported = false;
    serveList(() => page(imported ? 3 : 2));
    server.use(
      http.post('/api/devices/import/gateways', ({ request }) => {
        const applied = new URL(request.url).searchParams.get('apply') === 'true';
        imported ||= applied;
        return HttpResponse.json({ kind: 'gateways', applied, rows: 1, valid: 1, registered: applied ? 1 : 0, unchanged: 0, errors: [] });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<GatewaysPage />, { preloadedState: { session: { ...signedInSession(), role: 'operator' } } });
    await screen.findByRole('heading', { name: 'Gateway 1' });

    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import gateways from a CSV file' });
    await user.upload(within(dialog).getByLabelText('Choose a CSV file'), new File(['serialNumber\n'], 'new.csv', { type: 'text/csv' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Import 1 device' }));

    expect(await within(dialog).findByText('1 device registered')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('heading', { name: 'Gateway 2' })).toBeInTheDocument();
  });
});
