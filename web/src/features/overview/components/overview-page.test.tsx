import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { emptyExtraReads } from '../../../testing/extra-reads.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import OverviewPage from './overview-page.tsx';

interface Counts {
  gateways: number;
  lostGateways: number;
  meters: number;
  unhealthyMeters: number;
  lostMeters: number;
  criticalMeters: number;
}

const COUNTS: Counts = { gateways: 10, lostGateways: 2, meters: 3, unhealthyMeters: 1, lostMeters: 4, criticalMeters: 5 };

function countHandlers(counts: Counts) {
  const count = (path: string, value: number) => http.get(`/api/proxy/${path}`, () => HttpResponse.json({ count: value }));
  return [
    count('gateways/count', counts.gateways),
    count('gateways/lost/count', counts.lostGateways),
    count('wmeters/count', counts.meters),
    count('wmeters/unhealthy/count', counts.unhealthyMeters),
    count('wmeters/lost/count', counts.lostMeters),
    count('wmeters/critical/count', counts.criticalMeters),
  ];
}

const activity = [
  {
    _id: 'a1',
    gatewayId: '6b031854dbdeac91e41b6334',
    meterId: '',
    mqttTopic: 'wmeter/v1/gw/SG01000003/reading',
    action: 'reading 7 L from a very chatty meter',
    timestamp: '2026-11-22T16:29:22Z',
  },
  { _id: 'a2', gatewayId: '6b031854dbdeac91e41b6399', meterId: '6b031854dbdeac91e41b6335', action: 'ble -57 dBm', timestamp: '2026-11-22T16:29:21Z' },
];

function serve(counts = COUNTS, rows: unknown[] = activity) {
  const requests: URL[] = [];
  server.use(
    ...countHandlers(counts),
    http.get('/api/proxy/gateways/gateway-activity', ({ request }) => {
      requests.push(new URL(request.url));
      return HttpResponse.json(rows);
    }),
    ...emptyExtraReads(),
  );
  return requests;
}

describe('OverviewPage', () => {
  it('shows healthy counts with their share, and lost and critical counts', async () => {
    serve();
    renderWithProviders(<OverviewPage />);

    await waitFor(() => { expect(screen.getByTestId('gauge-healthy-gateways')).toHaveTextContent('8'); });
    expect(screen.getByTestId('gauge-healthy-gateways-percent')).toHaveTextContent('80% of 10');
    await waitFor(() => { expect(screen.getByTestId('gauge-healthy-meters')).toHaveTextContent('2'); });
    expect(screen.getByTestId('gauge-healthy-meters-percent')).toHaveTextContent('66.7% of 3');
    expect(screen.getByTestId('gauge-lost-gateways')).toHaveTextContent('2');
    expect(screen.getByTestId('gauge-lost-meters')).toHaveTextContent('4');
    expect(screen.getByTestId('gauge-critical-meters')).toHaveTextContent('5');
    expect(screen.getByRole('link', { name: 'Healthy Gateways: 8 of 10 (80%)' })).toHaveAttribute('href', '/gateways');
    expect(screen.getByRole('link', { name: 'Critical Meters: 5' })).toHaveAttribute('href', '/criticals');
  });

  it('shows 0% when there are no devices at all', async () => {
    serve({ gateways: 0, lostGateways: 0, meters: 0, unhealthyMeters: 0, lostMeters: 0, criticalMeters: 0 }, []);
    renderWithProviders(<OverviewPage />);

    await waitFor(() => { expect(screen.getByTestId('gauge-healthy-gateways-percent')).toHaveTextContent('0% of 0'); });
    await waitFor(() => { expect(screen.getByTestId('gauge-healthy-meters-percent')).toHaveTextContent('0% of 0'); });
    expect(screen.getByTestId('gauge-healthy-gateways')).toHaveTextContent('0');
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();
  });

  it.each([
    ['Healthy Gateways', '/gateways'],
    ['Healthy Meters', '/water-meters'],
    ['Lost Gateways', '/lost-gateways'],
    ['Lost Meters', '/lost-water-meters'],
    ['Critical Meters', '/criticals'],
  ])('goes to the %s list when its gauge is clicked', async (label, path) => {
    serve();
    renderWithProviders(<OverviewPage />);
    await waitFor(() => { expect(screen.getByTestId('gauge-healthy-meters')).toHaveTextContent('2'); });

    await userEvent.click(screen.getByRole('link', { name: new RegExp(`^${label}`) }));
    expect(screen.getByTestId('location')).toHaveTextContent(path);
  });

  it('reaches a gauge with the keyboard', async () => {
    serve();
    renderWithProviders(<OverviewPage />);
    await waitFor(() => { expect(screen.getByTestId('gauge-lost-gateways')).toHaveTextContent('2'); });

    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('link', { name: /^Healthy Gateways/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('location')).toHaveTextContent('/gateways');
  });

  it('lists activity with NA and truncation, and opens the gateway of a clicked row', async () => {
    const requests = serve();
    renderWithProviders(<OverviewPage />);

    const grid = await screen.findByRole('grid', { name: 'Gateways Activities' });
    expect(await within(grid).findByText('wmeter/v1/gw/SG01000…')).toBeInTheDocument();
    expect(within(grid).getByText('reading 7 L from a very c…')).toBeInTheDocument();
    expect(within(grid).getAllByText('NA')).toHaveLength(2);
    expect(requests[0]?.searchParams.get('max')).toBe('50');

    await userEvent.click(within(grid).getByText('ble -57 dBm'));
    expect(screen.getByTestId('location')).toHaveTextContent('/gateways/6b031854dbdeac91e41b6399');
  });

  it('names the devices of a row, each a link to its page', async () => {
    const named = {
      _id: 'a1',
      gatewayId: '6b031854dbdeac91e41b6301',
      gatewayName: 'GTW-SG01000003',
      meterId: '6b031854dbdeac91e41b6302',
      meterName: 'W-WM00000042',
      mqttTopic: 'wmeter/v1/gw/SG01000003/reading',
      action: 'reading 7 L',
      timestamp: '2026-11-22T09:32:00Z',
    };
    serve(COUNTS, [named]);
    renderWithProviders(<OverviewPage />);

    const grid = await screen.findByRole('grid', { name: 'Gateways Activities' });
    const meter = await within(grid).findByRole('link', { name: 'W-WM00000042' });
    expect(within(grid).getByRole('link', { name: 'GTW-SG01000003' })).toHaveAttribute('href', '/gateways/6b031854dbdeac91e41b6301');
    expect(within(grid).queryByText('6b031854dbdeac91e41b6302')).toBeNull();
    await userEvent.click(meter);
    expect(screen.getByTestId('location')).toHaveTextContent('/water-meters/6b031854dbdeac91e41b6302');
  });

  it('only logs a failed load and keeps the rest of the screen', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      ...countHandlers(COUNTS).slice(2),
      http.get('/api/proxy/gateways/count', () => HttpResponse.json({ code: 'boom' }, { status: 500 })),
      http.get('/api/proxy/gateways/lost/count', () => HttpResponse.json({ count: 2 })),
      http.get('/api/proxy/gateways/gateway-activity', () => HttpResponse.json({ code: 'boom' }, { status: 500 })),
      ...emptyExtraReads(),
    );
    renderWithProviders(<OverviewPage />);

    await waitFor(() => { expect(screen.getByTestId('gauge-healthy-meters')).toHaveTextContent('2'); });
    expect(screen.getByTestId('gauge-healthy-gateways')).toHaveTextContent('…');
    await waitFor(() => { expect(logged).toHaveBeenCalledTimes(2); });
    expect(await screen.findByText('No recent activity')).toBeInTheDocument();
  });
});
