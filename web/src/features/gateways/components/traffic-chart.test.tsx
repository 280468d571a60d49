import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { giveChartsWidth } from '../../../testing/chart-width.ts';
import { server } from '../../../testing/msw-server.ts';
import { GATEWAY_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import type { Traffic } from '../api/traffic-api.ts';
import { serveGateway } from '../testing/gateway-fixtures.ts';
import GatewayDetailPage from './gateway-detail-page.tsx';
import { TrafficChart } from './traffic-chart.tsx';

const DAY = 86_400_000;
const TITLE = 'Daily traffic, last 30 days';

function traffic(days: [uplinks: number, meters: number][]): Traffic {
  const start = Date.parse('2026-11-01T00:00:00Z');
  return {
    gatewayId: GATEWAY_ID,
    timeZone: 'UTC',
    from: new Date(start).toISOString(),
    to: new Date(start + days.length * DAY).toISOString(),
    points: days.map(([uplinks, meters], i) => ({
      start: new Date(start + i * DAY).toISOString(),
      end: new Date(start + (i + 1) * DAY).toISOString(),
      uplinks,
      meters,
    })),
  };
}

function serve(answer: Traffic) {
  const asked: URL[] = [];
  server.use(
    http.get('/api/traffic', ({ request }) => {
      asked.push(new URL(request.url));
      return HttpResponse.json(answer);
    }),
  );
  return asked;
}

describe("a gateway's traffic chart", () => {
  // The bars are a lazy chunk; its first import can outlast findBy's timeout.
  giveChartsWidth(600);

  it("asks the gateway's last 30 days and draws its uplinks and meters heard per day", async () => {
    const asked = serve(traffic([[1_200, 14], [0, 0], [1, 1]]));
    renderWithProviders(<TrafficChart gatewayId={GATEWAY_ID} />);

    const figure = await screen.findByRole('figure', { name: `${TITLE}: 1,201 uplinks in the range shown` });
    // A bar per day in each series, the two named in the legend.
    await waitFor(() => { expect(figure.querySelectorAll('.MuiBarChart-element')).toHaveLength(6); });
    const series = [...figure.querySelectorAll('.MuiBarChart-series')];
    expect(series.map((bars) => bars.querySelectorAll('.MuiBarChart-element').length)).toEqual([3, 3]);
    expect([...figure.querySelectorAll('.MuiChartsLegend-label')].map((label) => label.textContent)).toEqual(['Uplinks', 'Meters heard']);
    const params = Object.fromEntries(asked[0]?.searchParams ?? []);
    expect(params).toMatchObject({ gateway: GATEWAY_ID });
    expect(Date.parse(params.to ?? '') - Date.parse(params.from ?? '')).toBe(30 * DAY);
  });

  it('names one uplink in the singular', async () => {
    serve(traffic([[0, 0], [1, 1]]));
    renderWithProviders(<TrafficChart gatewayId={GATEWAY_ID} />);
    expect(await screen.findByRole('figure', { name: `${TITLE}: 1 uplink in the range shown` })).toBeInTheDocument();
  });

  it('announces each day as the arrow keys reach it, then the other series', async () => {
    serve(traffic([[1_200, 14], [300, 9]]));
    renderWithProviders(<TrafficChart gatewayId={GATEWAY_ID} />);
    const figure = await screen.findByRole('figure');
    await waitFor(() => { expect(figure.querySelector('[tabindex="0"]')).not.toBeNull(); });

    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => { expect(document.activeElement).toHaveAccessibleName('Uplinks; Nov 1: 1,200'); });
    await user.keyboard('{ArrowRight}');
    await waitFor(() => { expect(document.activeElement).toHaveAccessibleName('Uplinks; Nov 2: 300'); });
    await user.keyboard('{ArrowDown}');
    await waitFor(() => { expect(document.activeElement).toHaveAccessibleName('Meters heard; Nov 2: 9'); });
  });

  it('says so when the gateway relayed nothing', async () => {
    serve(traffic([[0, 0], [0, 0]]));
    renderWithProviders(<TrafficChart gatewayId={GATEWAY_ID} />);
    expect(await screen.findByText('No uplinks in the last 30 days')).toBeInTheDocument();
    expect(screen.queryByRole('figure')).toBeNull();
  });
});

describe('the gateway page', () => {
  it('shows the traffic chart beside the activity', async () => {
    serveGateway();
    renderWithProviders(<GatewayDetailPage />, { route: `/gateways/${GATEWAY_ID}`, path: '/gateways/:gatewayId' });
    expect(await screen.findByRole('heading', { level: 2, name: TITLE })).toBeInTheDocument();
    expect(await screen.findByText('No uplinks in the last 30 days')).toBeInTheDocument();
  });
});
