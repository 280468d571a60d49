import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';

import type { Device } from '../../../lib/types.ts';
import { gateway, meter } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import SearchResultsPage from './search-results-page.tsx';
import type { SearchState } from './search-state.ts';

/** Opens /search with `state`, as the search box does. */
function renderResults(state?: SearchState) {
  renderWithProviders(
    <Routes>
      <Route path="/" element={<Navigate to="/search" state={state} />} />
      <Route path="/search" element={<SearchResultsPage />} />
      <Route path="*" element={null} />
    </Routes>,
  );
  return userEvent.setup();
}

function card(name: string): HTMLElement {
  const article = screen.getByRole('heading', { level: 2, name }).closest('article');
  if (!article) throw new Error(`no card for ${name}`);
  return article;
}
const dotOf = (name: string) => within(card(name)).getByRole('img').getAttribute('data-colour');

describe('SearchResultsPage', () => {
  it.each<[string, SearchState | undefined]>([
    ['no state', undefined],
    ['notFound', { notFound: true }],
    ['an empty list', { results: [] }],
  ])('says nothing matched for %s', async (_, state) => {
    renderResults(state);
    expect(await screen.findByRole('heading', { level: 1, name: 'No matching devices found' })).toBeInTheDocument();
    expect(screen.getByText('Please check your search term or adjust the radius.')).toBeInTheDocument();
  });

  it('links to the map of the search, with its radius, when the search box led here', async () => {
    renderResults({ results: [gateway({})], query: { q: 'GTW-SG01', radius: 500 } });
    const link = await screen.findByRole('link', { name: 'Show on map' });
    expect(link).toHaveAttribute('href', '/map?q=GTW-SG01&radius=500');
  });

  it('offers no map without the search it came from', async () => {
    renderResults({ results: [gateway({})] });
    await screen.findByRole('heading', { level: 1, name: 'Search Results' });
    expect(screen.queryByRole('link', { name: 'Show on map' })).toBeNull();
  });

  it('shows a card per device with the texts of its kind', async () => {
    const results: Device[] = [
      gateway({ lastseen: null }),
      meter({ criticalState: false, totalConsumption: 42.5, lastseen: '2024-03-07T09:05:00' }),
    ];
    renderResults({ results });
    expect(await screen.findByRole('heading', { level: 1, name: 'Search Results' })).toBeInTheDocument();

    const gw = card('GTW-SG01000003');
    expect(within(gw).getByText('Gateway • IMEI: 350010000000003')).toBeInTheDocument();
    expect(gw).toHaveTextContent('BLE Address: 5A:01:00:00:03:01');
    expect(gw).toHaveTextContent('Last Seen: Never');
    expect(gw).toHaveTextContent('Water Meters: 5');
    expect(gw).not.toHaveTextContent('Consumption');

    const wm = card('W-SM01000059');
    expect(within(wm).getByText('Water Meter')).toBeInTheDocument();
    expect(wm).toHaveTextContent('BLE Address: 5B:01:00:00:3B:01');
    expect(wm).toHaveTextContent('Last Seen: 07-03-24, 09:05');
    expect(wm).toHaveTextContent('Consumption: 42.5 L');
    expect(wm).toHaveTextContent('Critical: No');
    expect(wm).not.toHaveTextContent('IMEI');
  });

  it('colours the dots: gateways by isOnline, meters by critical, then Up', async () => {
    renderResults({
      results: [
        gateway({ _id: 'g1', deviceName: 'online', isOnline: true }),
        gateway({ _id: 'g2', deviceName: 'offline', isOnline: false }),
        meter({ _id: 'm1', deviceName: 'critical', criticalState: true, deviceStatus: 'Up' }),
        meter({ _id: 'm2', deviceName: 'up', criticalState: false, deviceStatus: 'Up' }),
        meter({ _id: 'm3', deviceName: 'down', criticalState: false, deviceStatus: 'Down' }),
      ],
    });
    await screen.findByRole('heading', { level: 1, name: 'Search Results' });
    expect(dotOf('online')).toBe('green');
    expect(dotOf('offline')).toBe('gray');
    expect(dotOf('critical')).toBe('red');
    expect(dotOf('up')).toBe('green');
    expect(dotOf('down')).toBe('gray');
    expect(within(card('critical')).getByRole('img', { name: 'Critical' })).toBeInTheDocument();
    expect(card('critical')).toHaveTextContent('Critical: Yes');
  });

  it('opens the gateway page from a gateway card', async () => {
    const user = renderResults({ results: [gateway()] });
    await user.click(await screen.findByRole('link', { name: /GTW-SG01000003/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/gateways/6b031854dbdeac91e41b6334');
  });

  it('opens the meter page from a meter card, reading an $oid id', async () => {
    const user = renderResults({ results: [meter({ _id: { $oid: '6b031854dbdeac91e41b633c' } })] });
    await user.click(await screen.findByRole('link', { name: /W-SM01000059/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/water-meters/6b031854dbdeac91e41b633c');
  });

  it('names a device without a name by its prefix and serial', async () => {
    renderResults({ results: [gateway({ deviceName: '' }), meter({ deviceName: null })] });
    expect(await screen.findByRole('heading', { level: 2, name: 'GTW-SG01000003' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'W-SM01000059' })).toBeInTheDocument();
  });

  it('renders a device name as text, never as HTML', async () => {
    const name = '<img src=x onerror=alert(1)>';
    renderResults({ results: [meter({ deviceName: name }), gateway({ deviceName: name })] });
    expect(await screen.findAllByRole('heading', { level: 2, name })).toHaveLength(2);
    expect(document.querySelector('img')).toBeNull();
  });
});
