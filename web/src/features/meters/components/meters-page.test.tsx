import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { meter } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { json, meters, unanswered } from '../testing/fixtures.ts';
import MetersPage from './meters-page.tsx';

const count = (n: number) => http.get('/api/proxy/wmeters/count', () => json({ count: n }));

describe('Water Meters', () => {
  it('shows a spinner and the bare title while loading', async () => {
    server.use(...unanswered('/api/proxy/wmeters'));
    renderWithProviders(<MetersPage />);
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Water Meters$/);
  });

  it('shows one card per meter with its fields, dot and link, names as text', async () => {
    let params: URLSearchParams | undefined;
    server.use(
      count(3),
      http.get('/api/proxy/wmeters', ({ request }) => {
        params = new URL(request.url).searchParams;
        return json([
          meter({ _id: 'a'.repeat(24), deviceName: 'Critical one', criticalState: true, lastseen: '2026-11-22T16:29:19Z' }),
          meter({ _id: 'b'.repeat(24), deviceName: '<img src=x onerror=alert(1)>', lastseen: '2026-11-21T16:29:19Z' }),
          meter({ _id: 'c'.repeat(24), deviceName: '', serialNumber: 'SM00000003', deviceStatus: 'Down', lastseen: null, totalConsumption: 7.5 }),
        ]);
      }),
    );
    const { container } = renderWithProviders(<MetersPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Water Meters (3)' })).toBeInTheDocument();
    expect(params?.get('max')).toBe('20');
    expect(params?.has('start')).toBe(false);
    const cards = screen.getAllByRole('article');
    expect(cards).toHaveLength(3);

    const [critical, xss, plain] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(critical).getByRole('img', { name: 'Critical' })).toHaveAttribute('data-colour', 'red');
    expect(within(critical).getByText('Yes')).toBeInTheDocument();
    expect(within(critical).getByRole('link')).toHaveAttribute('href', `/water-meters/${'a'.repeat(24)}`);

    expect(within(xss).getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(within(xss).getByRole('img', { name: 'Up' })).toHaveAttribute('data-colour', 'green');
    expect(container.querySelector('img')).toBeNull();

    expect(within(plain).getByRole('heading', { name: 'W-SM00000003' })).toBeInTheDocument();
    expect(within(plain).getByRole('img', { name: 'Inactive' })).toHaveAttribute('data-colour', 'gray');
    expect(plain).toHaveTextContent('BLE Address: 5B:01:00:00:3B:01');
    expect(plain).toHaveTextContent('Last Seen: Never');
    expect(plain).toHaveTextContent('Consumption: 7.5 L');
    expect(plain).toHaveTextContent('Critical: No');
    expect(screen.getByTestId('list-counter')).toHaveTextContent('3 of 3');
  });

  it('says so when there is no meter', async () => {
    server.use(count(0), http.get('/api/proxy/wmeters', () => json([])));
    renderWithProviders(<MetersPage />);
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Water Meters (0)');
  });

  it('only logs a failed load and shows an empty list', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/proxy/wmeters/count', () => json({ code: 'internal' }, 500)),
      http.get('/api/proxy/wmeters', () => json({ code: 'internal' }, 500)),
    );
    renderWithProviders(<MetersPage />);
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Water Meters$/);
    expect(log).toHaveBeenCalled();
  });

  it('loads the page before the oldest shown and counts what is shown', async () => {
    const first = meters(20);
    const calls: URLSearchParams[] = [];
    server.use(
      count(25),
      http.get('/api/proxy/wmeters', ({ request }) => {
        const params = new URL(request.url).searchParams;
        calls.push(params);
        return json(params.has('start') ? [first[19], ...meters(1, 20)] : first);
      }),
    );
    renderWithProviders(<MetersPage />);

    expect(await screen.findByTestId('list-counter')).toHaveTextContent('20 of 25');
    await userEvent.click(screen.getByRole('button', { name: 'Load More' }));

    expect(await screen.findByText('Meter 20')).toBeInTheDocument();
    const more = calls[1];
    expect(more?.get('max')).toBe('20');
    expect(more?.get('start')).toBe(first[19]?.registeredAt);
    expect(more?.get('reverse')).toBe('true');
    expect(screen.getAllByRole('article')).toHaveLength(21);
    expect(screen.getByTestId('list-counter')).toHaveTextContent('21 of 25');
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it('offers the CSV export and import of meters beside the Export menu', async () => {
    server.use(count(1), http.get('/api/proxy/wmeters', () => json(meters(1))));
    const user = userEvent.setup();
    renderWithProviders(<MetersPage />);

    const heading = await screen.findByRole('heading', { level: 1 });
    // The import is another feature's chunk, loaded with the list.
    await screen.findByRole('button', { name: 'Import CSV' });
    const controls = within(heading.parentElement ?? document.body).getAllByRole('button').map((button) => button.textContent);
    expect(controls).toEqual(['Export', 'Export CSV', 'Import CSV']);

    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    expect(await screen.findByRole('dialog', { name: 'Import water meters from a CSV file' })).toBeInTheDocument();
  });
});
