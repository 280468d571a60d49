import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { Series } from '../../../lib/rollups-api.ts';
import { giveChartsWidth } from '../../../testing/chart-width.ts';
import { catchDownloads, csvFile } from '../../../testing/downloads.ts';
import { emptyExtraReads } from '../../../testing/extra-reads.ts';
import { server } from '../../../testing/msw-server.ts';
import { nth } from '../../../testing/nth.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { fakeToken, signedInSession } from '../../../testing/tokens.ts';
import type { TopConsumer } from '../api/top-consumers-api.ts';
import { OverviewConsumption } from './overview-consumption.tsx';

const DAY = 86_400_000;

function network(volumes: number[]): Series {
  const start = Date.parse('2026-11-01T00:00:00Z');
  return {
    scope: 'network',
    bucket: 'day',
    timeZone: 'UTC',
    from: new Date(start).toISOString(),
    to: new Date(start + volumes.length * DAY).toISOString(),
    totalMl: volumes.reduce((a, b) => a + b, 0),
    points: volumes.map((volumeMl, i) => ({ start: new Date(start + i * DAY).toISOString(), volumeMl, readings: volumeMl ? 1 : 0 })),
  };
}

/** The network's series and the top consumers; returns the requests of each. */
function serve(series: Series, top: TopConsumer[] = []) {
  const asked = { rollups: [] as URL[], top: [] as URL[] };
  server.use(
    http.get('/api/rollups', ({ request }) => {
      asked.rollups.push(new URL(request.url));
      return HttpResponse.json(series);
    }),
    http.get('/api/rollups/top', ({ request }) => {
      asked.top.push(new URL(request.url));
      return HttpResponse.json({ from: '2026-11-24T00:00:00Z', to: '2026-12-01T00:00:00Z', items: top });
    }),
    ...emptyExtraReads(),
  );
  return asked;
}

const TITLE = 'Network consumption, last 30 days';

describe("the overview's network consumption", () => {
  // The bars are a lazy chunk; its first import can outlast findBy's timeout.
  giveChartsWidth(600);

  it("asks the network's last 30 days by day, draws a bar per day in m³ and names the total", async () => {
    const asked = serve(network([2_500_000, 0, 12_000_000]));
    renderWithProviders(<OverviewConsumption />);

    const figure = await screen.findByRole('figure', { name: `${TITLE}: 14.5 m³ in the range shown` });
    await waitFor(() => { expect(figure.querySelectorAll('.MuiBarChart-element')).toHaveLength(3); });
    expect(within(figure).getByText('m³')).toBeInTheDocument();
    const params = Object.fromEntries(asked.rollups[0]?.searchParams ?? []);
    expect(params).toMatchObject({ bucket: 'day' });
    expect(params).not.toHaveProperty('meter');
    expect(params).not.toHaveProperty('gateway');
    expect(Date.parse(params.to ?? '') - Date.parse(params.from ?? '')).toBe(30 * DAY);
    expect(screen.queryByRole('group', { name: 'Range' })).toBeNull();
  });

  it('announces each bar as the arrow keys reach it', async () => {
    serve(network([2_500, 7_000, 0]));
    renderWithProviders(<OverviewConsumption />);
    const figure = await screen.findByRole('figure', { name: `${TITLE}: 9.5 L in the range shown` });
    await waitFor(() => { expect(figure.querySelector('[tabindex="0"]')).not.toBeNull(); });

    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toHaveFocus();
    await user.tab();
    expect(figure).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{ArrowRight}');
    await waitFor(() => { expect(document.activeElement).toHaveAccessibleName(`${TITLE}; Nov 1: 2.5 L`); });
    await user.keyboard('{ArrowRight}');
    await waitFor(() => { expect(document.activeElement).toHaveAccessibleName(`${TITLE}; Nov 2: 7 L`); });
  });

  it('says so when the network used nothing', async () => {
    serve(network([0, 0, 0]));
    renderWithProviders(<OverviewConsumption />);
    expect(await screen.findByText('No consumption in the last 30 days')).toBeInTheDocument();
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it("downloads the network's series as CSV with the token, under the server's name", async () => {
    const asked = serve(network([1_000]));
    const exports: Request[] = [];
    server.use(
      http.get('/api/exports/consumption', ({ request }) => {
        exports.push(request);
        return csvFile('consumption-network-2026-11-01.csv', 'start,end,volume_litres,readings\r\n');
      }),
    );
    const saved = catchDownloads();
    const token = fakeToken();
    renderWithProviders(<OverviewConsumption />, { preloadedState: { session: { ...signedInSession(token), role: 'viewer' } } });
    await screen.findByRole('figure');

    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => { expect(saved).toHaveLength(1); });
    expect(saved[0]?.name).toBe('consumption-network-2026-11-01.csv');
    expect(await saved[0]?.blob?.text()).toBe('start,end,volume_litres,readings\r\n');
    expect(exports[0]?.headers.get('Authorization')).toBe(`Bearer ${token}`);
    const params = Object.fromEntries(new URL(exports[0]?.url ?? '').searchParams);
    expect(params).toEqual(Object.fromEntries(asked.rollups[0]?.searchParams ?? []));
  });
});

describe('the top consumers', () => {
  const top: TopConsumer[] = [
    { meterId: 'a'.repeat(24), meterName: 'W-SM00000001', volumeMl: 12_500_000 },
    { meterId: 'b'.repeat(24), meterName: 'W-SM00000002', volumeMl: 2_500_000 },
    { meterId: 'c'.repeat(24), meterName: null, volumeMl: 400 },
  ];

  it("ranks the last 7 days' ten largest, each a link to its meter with its volume", async () => {
    const asked = serve(network([1_000]), top);
    renderWithProviders(<OverviewConsumption />);

    const list = await screen.findByRole('list', { name: 'Top consumers, last 7 days' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items.map((item) => within(item).getByRole('link').textContent)).toEqual(['W-SM00000001', 'W-SM00000002', 'c'.repeat(24)]);
    expect(within(nth(items, 0)).getByRole('link')).toHaveAttribute('href', `/water-meters/${'a'.repeat(24)}`);
    expect(nth(items, 0)).toHaveTextContent('12.5 m³');
    expect(nth(items, 1)).toHaveTextContent('2,500 L');
    expect(nth(items, 2)).toHaveTextContent('0.4 L');
    expect(Object.fromEntries(asked.top[0]?.searchParams ?? [])).toEqual({ days: '7', limit: '10' });

    await userEvent.click(within(nth(items, 1)).getByRole('link'));
    expect(screen.getByTestId('location')).toHaveTextContent(`/water-meters/${'b'.repeat(24)}`);
  });

  it('puts the most first whatever the order received, and leaves out meters that used nothing', async () => {
    serve(network([1_000]), [top[2], top[0], { meterId: 'd'.repeat(24), meterName: 'W-IDLE', volumeMl: 0 }, top[1]].filter((x) => x !== undefined));
    renderWithProviders(<OverviewConsumption />);
    const list = await screen.findByRole('list', { name: 'Top consumers, last 7 days' });
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['W-SM00000001', 'W-SM00000002', 'c'.repeat(24)]);
  });

  it('says so when no meter used anything', async () => {
    serve(network([0]), []);
    renderWithProviders(<OverviewConsumption />);
    expect(await screen.findByText('No consumption in the last 7 days')).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
  });
});
