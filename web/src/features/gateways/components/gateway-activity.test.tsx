import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { gateway, GATEWAY_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { activity, serveGateway } from '../testing/gateway-fixtures.ts';
import GatewayDetailPage from './gateway-detail-page.tsx';

const open = () => renderWithProviders(<GatewayDetailPage />, { route: `/gateways/${GATEWAY_ID}`, path: '/gateways/:gatewayId' });
const METER = '6b031854dbdeac91e41b6336';

describe('gateway detail telemetry', () => {
  it('colours RSSI by strength and opens the meter of a BLE row', async () => {
    serveGateway(gateway(), {
      ble: [
        { meterId: METER, rssi: -57, timestamp: '2026-11-22T16:29:19Z' },
        { meterId: 'm2', rssi: -70, timestamp: '2026-11-22T16:29:18Z' },
        { meterId: 'm3', rssi: -93, timestamp: '2026-11-22T16:29:17Z' },
      ],
    });
    open();
    const grid = await screen.findByRole('grid', { name: 'BLE Activities' });

    expect((await within(grid).findByText('-57')).closest('[data-colour]')).toHaveAttribute('data-colour', 'success');
    expect(within(grid).getByText('-70').closest('[data-colour]')).toHaveAttribute('data-colour', 'warning');
    expect(within(grid).getByText('-93').closest('[data-colour]')).toHaveAttribute('data-colour', 'error');

    await userEvent.click(within(grid).getByText(METER));
    expect(screen.getByTestId('location')).toHaveTextContent(`/water-meters/${METER}`);
  });

  it('hides Discovered Peripherals when there are none', async () => {
    serveGateway();
    open();
    await screen.findByRole('grid', { name: 'BLE Activities' });
    expect(screen.queryByRole('heading', { name: 'Discovered Peripherals' })).not.toBeInTheDocument();
  });

  it('loads older activity before the oldest shown and drops duplicates', async () => {
    const first = Array.from({ length: 20 }, (_, i) => activity(i));
    const older = [activity(19), activity(20, { mqttTopic: null, meterId: null })];
    const requests = serveGateway(gateway(), { activity: (url) => (url.searchParams.has('start') ? older : first) });
    open();
    const grid = await screen.findByRole('grid', { name: 'Gateway Activities' });
    await within(grid).findByText('reading 19 L');
    expect(requests[0]?.searchParams.get('max')).toBe('20');
    expect(requests[0]?.searchParams.has('start')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Load More' }));
    expect(await within(grid).findByText('reading 20 L')).toBeInTheDocument();
    expect(requests[1]?.searchParams.get('start')).toBe(activity(19).timestamp);
    expect(within(grid).getAllByText('reading 19 L')).toHaveLength(1);
    expect(within(grid).getAllByText('NA')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
  });

  it("drills into one meter's activity and back", async () => {
    const requests = serveGateway(gateway(), {
      activity: (url) =>
        url.searchParams.get('meterId') === METER ? [activity(7, { meterId: METER, action: 'only this meter' })] : [activity(1, { meterId: METER })],
    });
    open();
    const user = userEvent.setup();
    const grid = await screen.findByRole('grid', { name: 'Gateway Activities' });

    await user.click(await within(grid).findByText('reading 1 L'));
    expect(await screen.findByRole('heading', { name: `Activities for Meter ${METER}` })).toBeInTheDocument();
    const drilled = await screen.findByRole('grid', { name: `Activities for Meter ${METER}` });
    expect(await within(drilled).findByText('only this meter')).toBeInTheDocument();
    expect(requests.at(-1)?.searchParams.get('meterId')).toBe(METER);

    await user.click(screen.getByRole('button', { name: 'Back to all gateway activities' }));
    expect(await screen.findByRole('heading', { name: 'Gateway Activities' })).toBeInTheDocument();
    await waitFor(() => { expect(screen.getByRole('grid', { name: 'Gateway Activities' })).toHaveTextContent('reading 1 L'); });
  });
});
