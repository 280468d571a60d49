import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { gateway } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import LostGatewaysPage from './lost-gateways-page.tsx';

describe('LostGatewaysPage', () => {
  it('lists lost gateways with gray dots, name, BLE address and last seen', async () => {
    const requests: URL[] = [];
    server.use(
      http.get('/api/proxy/gateways/lost/count', () => HttpResponse.json({ count: 7 })),
      http.get('/api/proxy/gateways/lost', ({ request }) => {
        requests.push(new URL(request.url));
        return HttpResponse.json([gateway({ deviceName: null, isOnline: true, lastseen: '2026-01-02T10:00:00Z' })]);
      }),
    );
    renderWithProviders(<LostGatewaysPage />);

    expect(await screen.findByRole('heading', { level: 1, name: 'Lost Gateways (7)' })).toBeInTheDocument();
    const card = (await screen.findByRole('heading', { name: 'GTW-SG01000003' })).closest('article');
    if (!card) throw new Error('card not found');
    expect(within(card).getByRole('img', { name: 'Lost' })).toHaveAttribute('data-colour', 'gray');
    expect(within(card).getByText('BLE Address:')).toHaveTextContent('5A:01:00:00:03:01');
    expect(within(card).getByText('Last Seen:')).toHaveTextContent('02-01-26');
    expect(within(card).queryByText('IMEI:')).not.toBeInTheDocument();
    expect(requests[0]?.searchParams.get('max')).toBe('20');
    expect(screen.getByTestId('list-counter')).toHaveTextContent('1 of 7');
  });

  it('says so when no gateway is lost', async () => {
    server.use(
      http.get('/api/proxy/gateways/lost/count', () => HttpResponse.json({ count: 0 })),
      http.get('/api/proxy/gateways/lost', () => HttpResponse.json([])),
    );
    renderWithProviders(<LostGatewaysPage />);
    expect(await screen.findByText('No lost gateway found')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Lost Gateways (0)' })).toBeInTheDocument();
  });
});
