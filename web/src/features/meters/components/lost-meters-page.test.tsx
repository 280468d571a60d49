import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { meter } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { json, unanswered } from '../testing/fixtures.ts';
import LostMetersPage from './lost-meters-page.tsx';

describe('Lost Water Meters', () => {
  it('shows a spinner while loading', async () => {
    server.use(...unanswered('/api/proxy/wmeters/lost'));
    renderWithProviders(<LostMetersPage />);
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Lost Water Meters$/);
  });

  it('titles the list with its total; dots are red if critical, otherwise gray', async () => {
    let max: string | null = null;
    server.use(
      http.get('/api/proxy/wmeters/lost/count', () => json({ count: 2 })),
      http.get('/api/proxy/wmeters/lost', ({ request }) => {
        max = new URL(request.url).searchParams.get('max');
        return json([
          meter({ _id: 'a'.repeat(24), deviceName: 'Leaking', criticalState: true }),
          meter({ _id: 'b'.repeat(24), deviceName: 'Quiet', deviceStatus: 'Up' }),
        ]);
      }),
    );
    renderWithProviders(<LostMetersPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Lost Water Meters (2)' })).toBeInTheDocument();
    expect(max).toBe('20');
    const [leaking, quiet] = screen.getAllByRole('article') as [HTMLElement, HTMLElement];
    expect(within(leaking).getByRole('img', { name: 'Critical' })).toHaveAttribute('data-colour', 'red');
    expect(leaking).toHaveTextContent('Critical: Yes');
    expect(within(quiet).getByRole('img', { name: 'Inactive' })).toHaveAttribute('data-colour', 'gray');
    expect(quiet).toHaveTextContent('Consumption: 12 L');
    expect(quiet).toHaveTextContent('BLE Address: 5B:01:00:00:3B:01');
    expect(screen.getByTestId('list-counter')).toHaveTextContent('2 of 2');
  });

  it('says so when none is lost', async () => {
    server.use(
      http.get('/api/proxy/wmeters/lost/count', () => json({ count: 0 })),
      http.get('/api/proxy/wmeters/lost', () => json([])),
    );
    renderWithProviders(<LostMetersPage />);
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Lost Water Meters (0)');
  });

  it('only logs a failed load', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/proxy/wmeters/lost/count', () => json({ count: 4 })),
      http.get('/api/proxy/wmeters/lost', () => json({ code: 'internal' }, 500)),
    );
    renderWithProviders(<LostMetersPage />);
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
    expect(log).toHaveBeenCalled();
  });
});
