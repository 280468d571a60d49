import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { GATEWAY_ID, meter, METER_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { detailHandlers, json } from '../testing/fixtures.ts';
import MeterDetailPage from './meter-detail-page.tsx';

const open = () => renderWithProviders(<MeterDetailPage />, { route: `/water-meters/${METER_ID}`, path: '/water-meters/:meterId' });

const at = (second: number) => new Date(Date.UTC(2026, 10, 20, 12, 0, second)).toISOString();

const findGrid = (name: string) => screen.findByRole('grid', { name });

/** The text of each body row of a grid. */
function rowTexts(grid: HTMLElement): string[][] {
  return within(grid)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('gridcell').map((cell) => cell.textContent));
}

describe('Consumption Records', () => {
  it("shows '#value' rows and loads older records", async () => {
    const calls: URLSearchParams[] = [];
    const first = Array.from({ length: 20 }, (_, i) => ({ _id: `r${String(i)}`, record: 40 - i, timestamp: at(59 - i) }));
    server.use(
      http.get(`/api/proxy/wmeters/consumption/${METER_ID}`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        calls.push(params);
        return json(params.has('start') ? [first[19], { _id: 'old', record: 3, timestamp: at(1) }] : first);
      }),
      ...detailHandlers(),
    );
    open();

    const grid = await findGrid('Consumption Records');
    expect(rowTexts(grid)[0]?.[0]).toBe('#40 L');
    expect(calls[0]?.get('max')).toBe('20');
    expect(calls[0]?.has('start')).toBe(false);

    const section = screen.getByRole('region', { name: 'Consumption Records' });
    await userEvent.click(within(section).getByRole('button', { name: 'Load More' }));
    expect(await within(grid).findByText('#3 L')).toBeInTheDocument();
    expect(calls[1]?.get('start')).toBe(at(40));
    expect(calls[1]?.get('max')).toBe('20');
    expect(rowTexts(grid)).toHaveLength(21);
    expect(within(section).queryByRole('button', { name: 'Load More' })).toBeNull();
  });

  it('says so when there is none', async () => {
    server.use(...detailHandlers());
    open();
    expect(await screen.findByText('No consumption records')).toBeInTheDocument();
  });
});

describe('Critical Alerts', () => {
  it("ranks 'raised' alerts first", async () => {
    server.use(
      http.get(`/api/proxy/wmeters/critical/${METER_ID}`, () =>
        json([
          { type: 'leak', status: 'cleared', receivedAt: at(1), updatedAt: at(2) },
          { type: 'tamper', status: 'raised', receivedAt: at(3), updatedAt: at(3) },
        ]),
      ),
      ...detailHandlers(),
    );
    open();
    const grid = await findGrid('Critical Alerts');
    expect(rowTexts(grid).map((row) => row.slice(0, 2))).toEqual([
      ['tamper', 'raised'],
      ['leak', 'cleared'],
    ]);
  });

  it.each([
    [true, 'true'],
    [false, 'false'],
  ])('pulses its heading only while the meter is critical (%s)', async (critical, flag) => {
    server.use(...detailHandlers(meter({ criticalState: critical })));
    open();
    const heading = await screen.findByRole('heading', { level: 2, name: /^Critical Alerts/ });
    expect(heading).toHaveAttribute('data-critical', flag);
    expect(heading.textContent.includes('The meter is in critical state')).toBe(critical);
  });
});

describe('BLE Activities', () => {
  it('colours the RSSI, shows its number and opens the gateway on a row click', async () => {
    server.use(
      http.get(`/api/proxy/wmeters/ble-activity/${METER_ID}`, () =>
        json([
          { gatewayId: GATEWAY_ID, meterId: METER_ID, rssi: -93, timestamp: at(5) },
          { gatewayId: 'f'.repeat(24), meterId: METER_ID, rssi: -55, timestamp: at(4) },
        ]),
      ),
      ...detailHandlers(),
    );
    open();
    const grid = await findGrid('BLE Activities');
    expect(within(grid).getByText('-93').closest('[data-colour]')).toHaveAttribute('data-colour', 'error');
    expect(within(grid).getByText('-55').closest('[data-colour]')).toHaveAttribute('data-colour', 'success');

    await userEvent.click(within(grid).getByText(GATEWAY_ID));
    expect(screen.getByTestId('location')).toHaveTextContent(`/gateways/${GATEWAY_ID}`);
  });
});

describe('Gateway Activities', () => {
  it('drills down to one gateway with its own Load More, and back', async () => {
    const other = 'f'.repeat(24);
    const calls: URLSearchParams[] = [];
    const row = (id: string, gatewayId: string, second: number) => ({
      _id: id,
      gatewayId,
      meterId: METER_ID,
      mqttTopic: 'wmeter/v1/gw/SG01000003/reading',
      action: 'reading 12 L',
      timestamp: at(second),
    });
    server.use(
      http.get(`/api/proxy/wmeters/gateway-activity/${METER_ID}`, ({ request }) => {
        const params = new URL(request.url).searchParams;
        calls.push(params);
        if (params.get('gatewayId') === other) {
          if (params.has('start')) return json([row('older', other, 1)]);
          return json(Array.from({ length: 20 }, (_, i) => row(`o${String(i)}`, other, 50 - i)));
        }
        return json([row('a', GATEWAY_ID, 59), { ...row('b', other, 58), mqttTopic: null }]);
      }),
      ...detailHandlers(),
    );
    open();

    const grid = await findGrid('Gateway Activities');
    expect(rowTexts(grid)[0]?.slice(0, 3)).toEqual([GATEWAY_ID, 'wmeter/v1/gw/SG01000…', 'reading 12 L']);
    expect(rowTexts(grid)[1]?.[1]).toBe('NA');
    expect(calls[0]?.get('max')).toBe('20');
    expect(calls[0]?.has('gatewayId')).toBe(false);

    await userEvent.click(within(grid).getByText(other));
    const drill = await screen.findByRole('region', { name: `Activities for Gateway ${other}` });
    await waitFor(() => { expect(within(drill).getAllByRole('row')).toHaveLength(21); });
    expect(calls[1]?.get('gatewayId')).toBe(other);

    await userEvent.click(within(drill).getByRole('button', { name: 'Load More' }));
    await waitFor(() => { expect(within(drill).getAllByRole('row')).toHaveLength(22); });
    expect(calls[2]?.get('gatewayId')).toBe(other);
    expect(calls[2]?.get('start')).toBe(at(31));

    await userEvent.click(within(drill).getByRole('button', { name: 'Back to all gateway activities' }));
    const all = await screen.findByRole('region', { name: 'Gateway Activities' });
    await waitFor(() => { expect(within(all).getAllByRole('row')).toHaveLength(3); });
    expect(calls[3]?.has('gatewayId')).toBe(false);
  });
});
