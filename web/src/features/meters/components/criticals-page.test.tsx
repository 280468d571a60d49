import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { meter } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { json, unanswered } from '../testing/fixtures.ts';
import CriticalsPage from './criticals-page.tsx';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);

describe('Critical Water Meters', () => {
  it('shows a spinner while loading', async () => {
    server.use(...unanswered('/api/proxy/wmeters/critical'));
    renderWithProviders(<CriticalsPage />);
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Critical Water Meters$/);
  });

  it('shows red cards with the raised alerts as bullets', async () => {
    const onlyRaised: (string | null)[] = [];
    server.use(
      http.get('/api/proxy/wmeters/critical/count', () => json({ count: 2 })),
      http.get('/api/proxy/wmeters/critical', () =>
        json([
          meter({ _id: A, deviceName: 'Leaky', criticalState: true, lastseen: '2026-11-22T16:29:19Z' }),
          meter({ _id: B, deviceName: 'Silent', criticalState: true, lastseen: null, deviceStatus: 'Down', totalConsumption: 3 }),
        ]),
      ),
      http.get('/api/proxy/wmeters/critical/:id', ({ params, request }) => {
        onlyRaised.push(new URL(request.url).searchParams.get('onlyRaised'));
        return json(
          params.id === A
            ? [
                { type: 'leak', status: 'raised', receivedAt: '2026-11-22T16:29:14Z', updatedAt: '2026-11-22T16:29:14Z' },
                { type: 'tamper', status: 'raised', receivedAt: '2026-11-22T16:29:15Z', updatedAt: '2026-11-22T16:29:15Z' },
              ]
            : [],
        );
      }),
    );
    renderWithProviders(<CriticalsPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Critical Water Meters (2)' })).toBeInTheDocument();
    const [leaky, silent] = screen.getAllByRole('article') as [HTMLElement, HTMLElement];
    const bullets = await within(leaky).findByRole('list', { name: 'Raised alerts' });
    expect(within(bullets).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'leak — raised',
      'tamper — raised',
    ]);
    expect(onlyRaised).toEqual(['true', 'true']);
    expect(within(leaky).getByRole('img', { name: 'Critical' })).toHaveAttribute('data-colour', 'red');
    expect(within(leaky).getByRole('link')).toHaveAttribute('href', `/water-meters/${A}`);

    expect(within(silent).getByRole('img', { name: 'Critical' })).toHaveAttribute('data-colour', 'red');
    expect(silent).toHaveTextContent('Last Seen: N/A');
    expect(silent).toHaveTextContent('BLE Address: 5B:01:00:00:3B:01');
    expect(silent).toHaveTextContent('Consumption: 3 L');
    expect(silent).toHaveTextContent('Device Status: Down');
    expect(within(silent).queryByRole('list')).toBeNull();
    expect(screen.getByTestId('list-counter')).toHaveTextContent('2 of 2');
  });

  it('says so when no meter is critical', async () => {
    server.use(
      http.get('/api/proxy/wmeters/critical/count', () => json({ count: 0 })),
      http.get('/api/proxy/wmeters/critical', () => json([])),
    );
    renderWithProviders(<CriticalsPage />);
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Critical Water Meters (0)');
  });

  it('only logs a failed load', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/proxy/wmeters/critical/count', () => json({ count: 1 })),
      http.get('/api/proxy/wmeters/critical', () => json({ code: 'internal' }, 500)),
    );
    renderWithProviders(<CriticalsPage />);
    expect(await screen.findByText('Nothing to show')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Critical Water Meters (1)');
    expect(log).toHaveBeenCalled();
  });
});
