import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { applyLanguage } from '../../../lib/i18n.ts';
import { server } from '../../../testing/msw-server.ts';
import { gateway, meter } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { cluster, LYON, mapView, marker, OSM, serveMap } from '../testing/map-fixtures.ts';
import MapPage from './map-page.tsx';

// jsdom lays nothing out: give the map's container a size, as a browser
// would, so that Leaflet places the markers (as DOM elements) and has bounds.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(700);
});

function render(route = '/map', serve = serveMap()) {
  server.use(...serve.handlers);
  renderWithProviders(<MapPage />, { route, path: '/map' });
  return { ...serve, user: userEvent.setup() };
}

const CLUSTER = 'Cluster of 3 devices, worst health critical';
const METER = 'W-SM01000004, meter, healthy';
const status = () => within(screen.getByRole('region', { name: /Network map|Carte du réseau/ })).getByRole('status');
const box = (bbox: string | undefined) => (bbox ?? '').split(',').map(Number);

describe('the Map screen', () => {
  it('shows the clusters and devices of the view, named for assistive tech, with a legend', async () => {
    render();
    expect(await screen.findByRole('button', { name: CLUSTER })).toHaveAttribute('title', CLUSTER);
    expect(screen.getByRole('button', { name: METER })).toHaveAttribute('title', METER);
    expect(screen.getByRole('button', { name: 'GTW-SG01000003, gateway, lost' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: CLUSTER })).toHaveTextContent('3');

    expect(screen.getByRole('region', { name: 'Network map' })).toBeInTheDocument();
    expect(status()).toHaveTextContent('68 devices in view');
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeInTheDocument();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(within(legend).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Healthy', 'Lost', 'Down', 'Critical']);
  });

  it('opens fitted to the network, then asks for that view only', async () => {
    const { views } = render();
    await screen.findByRole('button', { name: CLUSTER });
    expect(views).toHaveLength(1);
    const [west = 0, south = 0, east = 0, north = 0] = box(views[0]);
    const [w = 0, s = 0, e = 0, n = 0] = LYON.bbox ?? [];
    expect(west).toBeLessThanOrEqual(w);
    expect(south).toBeLessThanOrEqual(s);
    expect(east).toBeGreaterThanOrEqual(e);
    expect(north).toBeGreaterThanOrEqual(n);
    expect(east - west).toBeLessThan(1);
  });

  it('says when the devices were counted, and when the view is cut at 2,000', async () => {
    const counted = new Date();
    counted.setHours(14, 5, 0, 0);
    render('/map', serveMap({ view: mapView({ countedAt: counted.toISOString(), truncated: true, total: 1 }) }));
    await screen.findByRole('button', { name: CLUSTER });
    expect(status()).toHaveTextContent('1 device in view');
    expect(status()).toHaveTextContent('Counts from 14:05');
    expect(status()).toHaveTextContent('Showing the first 2,000');
  });

  it('zooms to a cluster on a click, and asks for the new view', async () => {
    const { views, user } = render();
    await user.click(await screen.findByRole('button', { name: CLUSTER }));
    await waitFor(() => {
      expect(views).toHaveLength(2);
    });
    const [west = 0, south = 0, east = 0, north = 0] = box(views[1]);
    const [w, s, e, n] = cluster().bbox;
    expect([west <= w, south <= s, east >= e, north >= n]).toEqual([true, true, true, true]);
    expect(east - west).toBeLessThan(0.01);
  });

  it('keeps the view shown while the next one loads, then shows the next', async () => {
    let answered = 0;
    const { views, user } = render(
      '/map',
      serveMap({
        view: () => (answered++ === 0 ? mapView() : mapView({ total: 3, clusters: [], markers: [marker({ name: 'W-SM01000099' })] })),
        lag: (nth) => (nth === 0 ? 0 : 300),
      }),
    );
    await user.click(await screen.findByRole('button', { name: CLUSTER }));
    await waitFor(() => {
      expect(views).toHaveLength(2);
    });
    expect(screen.getByRole('button', { name: METER })).toBeInTheDocument();
    expect(status()).toHaveTextContent('68 devices in view');
    expect(await screen.findByRole('button', { name: 'W-SM01000099, meter, healthy' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: METER })).toBeNull();
    expect(status()).toHaveTextContent('3 devices in view');
  });

  it('zooms to a cluster with Enter', async () => {
    const { views, user } = render();
    (await screen.findByRole('button', { name: CLUSTER })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => {
      expect(views).toHaveLength(2);
    });
  });

  it("opens a device's popup from the keyboard, with a link to its page that takes the focus", async () => {
    const { user } = render();
    const device = await screen.findByRole('button', { name: METER });
    device.focus();
    await user.keyboard('{Enter}');
    const popup = await screen.findByRole('region', { name: 'W-SM01000004' });
    expect(popup).toHaveTextContent('Water Meter');
    expect(popup).toHaveTextContent('Health: healthy');
    const open = within(popup).getByRole('link', { name: 'Open' });
    expect(open).toHaveAttribute('href', '/water-meters/6b031854dbdeac91e41b633c');
    expect(open).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Close popup' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('region', { name: 'W-SM01000004' })).toBeNull();
    });
    expect(device).toHaveFocus();

    await user.keyboard(' ');
    expect(await screen.findByRole('region', { name: 'W-SM01000004' })).toBeInTheDocument();
  });

  it("opens a gateway's page from its popup, in the app", async () => {
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'GTW-SG01000003, gateway, lost' }));
    const popup = await screen.findByRole('region', { name: 'GTW-SG01000003' });
    expect(popup).toHaveTextContent('Gateway');
    expect(popup).toHaveTextContent('Health: lost');
    expect(within(popup).getByRole('link', { name: 'Open' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/gateways/6b031854dbdeac91e41b6334');
  });

  it('draws the configured tiles with their attribution as text, and keeps working when they fail', async () => {
    render('/map', serveMap({ settings: { ...OSM, mapAttribution: '<b>© OpenStreetMap</b> contributors' } }));
    await screen.findByRole('button', { name: CLUSTER });
    const tiles = await waitFor(() => {
      const found = document.querySelectorAll<HTMLImageElement>('img.leaflet-tile');
      expect(found.length).toBeGreaterThan(0);
      return found;
    });
    expect(tiles[0]?.getAttribute('src')).toMatch(/^https:\/\/tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png$/);
    expect(screen.getByText(/<b>© OpenStreetMap<\/b> contributors/)).toBeInTheDocument();
    for (const tile of tiles) tile.dispatchEvent(new Event('error'));
    expect(screen.getByRole('button', { name: METER })).toBeInTheDocument();
  });

  it('draws no tiles when none are configured', async () => {
    render('/map', serveMap({ settings: { mapTilesUrl: '', mapAttribution: '' } }));
    await screen.findByRole('button', { name: CLUSTER });
    expect(document.querySelector('.leaflet-tile-pane img')).toBeNull();
  });

  it('opens on the world, and says so, when no device has a position yet', async () => {
    const { views } = render('/map', serveMap({ extent: { bbox: null, devices: 0 }, view: mapView({ total: 0, clusters: [], markers: [] }) }));
    expect(await screen.findByText('No device has a position yet.')).toBeInTheDocument();
    await waitFor(() => {
      expect(status()).toHaveTextContent('0 devices in view');
    });
    const [west = 0, south = 0, east = 0, north = 0] = box(views[0]);
    expect(west).toBeLessThan(-100);
    expect(east).toBeGreaterThan(100);
    expect(south).toBeGreaterThanOrEqual(-85);
    expect(north).toBeLessThanOrEqual(85);
  });

  it('speaks French, controls included', async () => {
    await applyLanguage('fr');
    try {
      render();
      expect(await screen.findByRole('button', { name: 'Groupe de 3 appareils, état le plus grave : critique' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'GTW-SG01000003, passerelle, perdue' })).toBeInTheDocument();
      expect(screen.getByRole('region', { name: 'Carte du réseau' })).toBeInTheDocument();
      expect(status()).toHaveTextContent('68 appareils affichés');
      expect(screen.getByRole('button', { name: 'Zoom avant' })).toBeInTheDocument();
      expect(screen.getByRole('list', { name: 'Légende' })).toHaveTextContent('SainPerduCoupéCritique');
    } finally {
      await applyLanguage('en');
    }
  });

  it('says when the view could not be loaded', async () => {
    render('/map', serveMap({ view: () => null }));
    expect(await screen.findByText('The map could not be loaded. Move the map to try again.')).toBeInTheDocument();
  });
});

describe('the Map screen opened from a search', () => {
  const results = [
    meter({ gpsCoordinates: [4.813022, 45.759247] }),
    gateway({ gpsCoordinates: [4.8177, 45.76] }),
    meter({ _id: 'no-position', gpsCoordinates: null }),
  ];
  const circles = () => document.querySelectorAll('.leaflet-overlay-pane path');

  it('runs the search, draws its radius around each result with a position, and fits to them', async () => {
    const { searches, views } = render('/map?q=SM01&radius=150', serveMap({ search: results }));
    await screen.findByRole('button', { name: CLUSTER });
    expect(Object.fromEntries(searches[0]?.searchParams ?? [])).toEqual({ q: 'SM01', radius: '150' });
    expect(circles()).toHaveLength(2);
    expect(status()).toHaveTextContent('3 results for “SM01”');
    expect(status()).toHaveTextContent('Search radius: 150 m');
    const [west = 0, , east = 0] = box(views[0]);
    expect(west).toBeLessThan(4.813);
    expect(east).toBeGreaterThan(4.8177);
    expect(east - west).toBeLessThan(0.1);
    expect(screen.getByRole('button', { name: 'Fit to the search' })).toBeInTheDocument();
  });

  it('draws the radius around the point searched for when the term is a position', async () => {
    render('/map?q=4.85,45.75&radius=50', serveMap({ search: results }));
    await screen.findByRole('button', { name: CLUSTER });
    expect(circles()).toHaveLength(1);
  });

  it('opens on the network when no result has a position', async () => {
    const { views } = render('/map?q=nowhere&radius=100', serveMap({ search: [meter({ gpsCoordinates: null })] }));
    expect(await screen.findByText('No search result has a position.')).toBeInTheDocument();
    await waitFor(() => {
      expect(views).toHaveLength(1);
    });
    expect(circles()).toHaveLength(0);
    expect(box(views[0])[0]).toBeLessThanOrEqual(LYON.bbox?.[0] ?? 0);
    expect(screen.getByRole('button', { name: 'Fit to the network' })).toBeInTheDocument();
  });
});
