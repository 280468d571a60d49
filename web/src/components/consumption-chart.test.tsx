import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { REFRESH_HEADER } from '../lib/api.ts';
import type { Series } from '../lib/rollups-api.ts';
import { catchDownloads, csvFile } from '../testing/downloads.ts';
import { server } from '../testing/msw-server.ts';
import { renderWithProviders } from '../testing/render.tsx';
import { fakeToken, signedInSession } from '../testing/tokens.ts';
import { bucketIndex, ConsumptionChart, rangeOf } from './consumption-chart.tsx';

function series(volumes: number[], bucket: Series['bucket'] = 'day'): Series {
  const start = Date.parse('2026-11-01T00:00:00Z');
  const step = bucket === 'hour' ? 3_600_000 : 86_400_000;
  return {
    scope: 'meter',
    bucket,
    timeZone: 'UTC',
    from: new Date(start).toISOString(),
    to: new Date(start + volumes.length * step).toISOString(),
    totalMl: volumes.reduce((a, b) => a + b, 0),
    points: volumes.map((volumeMl, i) => ({ start: new Date(start + i * step).toISOString(), volumeMl, readings: volumeMl ? 1 : 0 })),
  };
}

function serve(answer: Series) {
  const asked: URL[] = [];
  server.use(
    http.get('/api/rollups', ({ request }) => {
      asked.push(new URL(request.url));
      return HttpResponse.json(answer);
    }),
  );
  return asked;
}

const chart = (range: '24h' | '30d' | '12m' = '30d') => (
  <ConsumptionChart meterId="6b031854dbdeac91e41b633c" title="Consumption" range={range} onRange={() => undefined} />
);

describe('the consumption chart', () => {
  it("asks the meter's series for the range, and names its total in the unit it draws", async () => {
    const asked = serve(series([2_500_000, 0, 12_000_000]));
    renderWithProviders(chart('30d'));
    expect(await screen.findByRole('figure', { name: 'Consumption: 14.5 m³ in the range shown' })).toBeInTheDocument();
    const params = Object.fromEntries(asked[0]?.searchParams ?? []);
    expect(params).toMatchObject({ meter: '6b031854dbdeac91e41b633c', bucket: 'day' });
    expect(Date.parse(params.to ?? '') - Date.parse(params.from ?? '')).toBe(30 * 86_400_000);
  });

  it('says so when the range holds no consumption', async () => {
    serve(series([0, 0, 0]));
    renderWithProviders(chart());
    expect(await screen.findByText('No consumption in this range')).toBeInTheDocument();
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it('offers the four ranges, the current one pressed', async () => {
    serve(series([1_000]));
    renderWithProviders(chart('12m'));
    await waitFor(() => { expect(screen.getByRole('button', { name: '12 months', pressed: true })).toBeInTheDocument(); });
    for (const name of ['24 h', '7 days', '30 days']) expect(screen.getByRole('button', { name, pressed: false })).toBeInTheDocument();
  });
});

describe("the chart's CSV download", () => {
  const METER = '6b031854dbdeac91e41b633c';
  const NAME = 'consumption-6b031854dbdeac91e41b633c-2026-11-01.csv';

  /** The export, answered with `answer`; returns the requests it got. */
  function serveExport(answer: (request: Request) => Response) {
    const requests: Request[] = [];
    server.use(
      http.get('/api/exports/consumption', ({ request }) => {
        requests.push(request);
        return answer(request);
      }),
    );
    return requests;
  }

  const downloadable = () => <ConsumptionChart meterId={METER} title="Consumption" range="7d" onRange={() => undefined} download />;

  it('is offered only when the caller asks', async () => {
    serve(series([1_000]));
    renderWithProviders(chart());
    await screen.findByRole('figure');
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
  });

  it("asks the range shown with the token and saves it under the server's name", async () => {
    const asked = serve(series([1_000, 2_000]));
    const requests = serveExport(() => csvFile(NAME, 'start,end,volume_litres,readings\r\n'));
    const saved = catchDownloads();
    const token = fakeToken();
    renderWithProviders(downloadable(), { preloadedState: { session: signedInSession(token) } });
    await screen.findByRole('figure');

    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => { expect(saved).toHaveLength(1); });
    expect(saved[0]?.name).toBe(NAME);
    expect(requests[0]?.headers.get('Authorization')).toBe(`Bearer ${token}`);
    const params = Object.fromEntries(new URL(requests[0]?.url ?? '').searchParams);
    expect(params).toEqual(Object.fromEntries(asked[0]?.searchParams ?? []));
    expect(params).toMatchObject({ meter: METER, bucket: 'day' });
  });

  it('refreshes an expired token once and asks again', async () => {
    serve(series([1_000]));
    const fresh = fakeToken(900, { fresh: true });
    let refreshes = 0;
    server.use(
      http.post('/api/auth/refresh', ({ request }) => {
        refreshes += 1;
        expect(request.headers.get(REFRESH_HEADER)).not.toBeNull();
        return HttpResponse.json({ accessToken: fresh });
      }),
    );
    const requests = serveExport((request) =>
      request.headers.get('Authorization') === `Bearer ${fresh}` ? csvFile(NAME, 'x') : HttpResponse.json({ code: 'unauthorized' }, { status: 401 }),
    );
    const saved = catchDownloads();
    renderWithProviders(downloadable());
    await screen.findByRole('figure');

    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => { expect(saved.map((file) => file.name)).toEqual([NAME]); });
    expect(refreshes).toBe(1);
    expect(requests).toHaveLength(2);
  });

  it('says so when the download fails, and saves nothing', async () => {
    serve(series([1_000]));
    serveExport(() => HttpResponse.json({ code: 'internal' }, { status: 500 }));
    const saved = catchDownloads();
    renderWithProviders(downloadable());
    await screen.findByRole('figure');

    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('The download failed. Please try again.')).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });
});

describe('the ranges and marks', () => {
  it('end with the current hour and span their length', () => {
    const now = Date.parse('2026-11-24T10:20:00Z');
    expect(rangeOf('24h', now)).toEqual({ bucket: 'hour', from: '2026-11-23T11:00:00.000Z', to: '2026-11-24T11:00:00.000Z' });
    expect(rangeOf('12m', now).bucket).toBe('month');
  });

  it('put an alarm in the bucket that holds its time, and none outside the range', () => {
    const days = series([1, 2, 3]);
    expect(bucketIndex(days, '2026-11-02T13:00:00Z')).toBe(1);
    expect(bucketIndex(days, '2026-11-01T00:00:00Z')).toBe(0);
    expect(bucketIndex(days, '2026-10-31T23:59:59Z')).toBe(-1);
    expect(bucketIndex(days, '2026-11-04T00:00:00Z')).toBe(-1);
  });
});
