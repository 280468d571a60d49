import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { gateway, GATEWAY_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { gatewaysApi } from '../api/gateways-api.ts';
import { serveGateway } from '../testing/gateway-fixtures.ts';
import GatewayDetailPage from './gateway-detail-page.tsx';

const PATH = '/gateways/:gatewayId';
const open = (param: string) => renderWithProviders(<GatewayDetailPage />, { route: `/gateways/${param}`, path: PATH });

function field(label: string) {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('GatewayDetailPage', () => {
  it('shows every field of a gateway found by id', async () => {
    serveGateway(gateway({ lastseen: null, isOnline: false, registeredAt: '2025-01-05T10:00:00Z' }));
    open(GATEWAY_ID);

    const heading = await screen.findByRole('heading', { level: 1, name: 'GTW-SG01000003' });
    expect(within(heading.parentElement ?? heading).getByRole('img', { name: 'Offline' })).toHaveAttribute('data-colour', 'gray');
    expect(field('Device Id')).toBe(GATEWAY_ID);
    expect(field('Device Name')).toBe('GTW-SG01000003');
    expect(field('Serial Number')).toBe('SG01000003');
    expect(field('IMEI')).toBe('350010000000003');
    expect(field('BLE Address')).toBe('5A:01:00:00:03:01');
    expect(field('MAC Address')).toBe('5C:01:00:00:03:01');
    expect(field('Phone Number')).toBe('0701000003');
    expect(field('Last Seen')).toBe('Never');
    expect(field('Registered At')).toMatch(/^05-01-25, \d\d:\d\d$/);
    expect(field('Discovered Peripherals count')).toBe('3');
    expect(field('Pushed Records Count')).toBe('8');
    expect(field('Water Meters Count')).toBe('5');
    expect(field('GPS Location')).toBe('4.817700, 45.760000');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it.each(['GTW-SG01000003', 'SG01000003', 'gtw-SG01000003'])('finds a gateway by its serial number: %s', async (param) => {
    serveGateway();
    open(param);
    // The heading shows the route parameter while loading, so wait for the details themselves.
    await screen.findByText('Device Id', { selector: 'dt' });
    expect(screen.getByRole('heading', { level: 1, name: 'GTW-SG01000003' })).toBeInTheDocument();
    expect(field('Device Id')).toBe(GATEWAY_ID);
  });

  it.each([404, 500])("says 'Failed to load gateway.' when the load fails with %i", async (status) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/proxy/gateways/serial/NOPE000000', () => HttpResponse.json({ code: 'not_found' }, { status })));
    open('NOPE000000');
    expect(await screen.findByText('Failed to load gateway.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });

  it('offers Delete only for a gateway never seen', async () => {
    serveGateway(gateway({ lastseen: '2026-11-22T16:29:22Z' }));
    open(GATEWAY_ID);
    await screen.findByRole('button', { name: 'Edit' });
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('deletes after confirmation, then goes back and refreshes the lists', async () => {
    serveGateway(gateway({ lastseen: null }));
    let deleted = false;
    let countReads = 0;
    server.use(
      http.delete(`/api/proxy/gateways/${GATEWAY_ID}`, () => {
        deleted = true;
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/proxy/gateways/count', () => {
        countReads += 1;
        return HttpResponse.json({ count: 1 });
      }),
    );
    const { store } = open(GATEWAY_ID);
    // A list subscriber, as the gateways page would have one.
    const subscription = store.dispatch(gatewaysApi.endpoints.gatewayCount.initiate('all'));
    await waitFor(() => { expect(countReads).toBe(1); });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete gateway' });
    expect(dialog).toHaveTextContent('Delete GTW-SG01000003? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => { expect(screen.getByTestId('location')).toHaveTextContent(/^\/gateways$/); });
    expect(deleted).toBe(true);
    await waitFor(() => { expect(countReads).toBe(2); });
    subscription.unsubscribe();
  });

  it.each([
    [403, 'Delete failed: Action denied'],
    [409, 'Delete failed'],
  ])('shows the delete failure for %i', async (status, message) => {
    serveGateway(gateway({ lastseen: null }));
    server.use(http.delete(`/api/proxy/gateways/${GATEWAY_ID}`, () => HttpResponse.json({ code: 'x' }, { status })));
    open(GATEWAY_ID);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/gateways/${GATEWAY_ID}`);
  });

  it('renders device-supplied names as text', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    serveGateway(gateway({ deviceName: evil }), {
      peripherals: [{ deviceName: evil, bleAddress: 'AA:BB:CC:DD:EE:FF', timestamp: '2026-11-22T16:29:22Z' }],
    });
    open(GATEWAY_ID);

    expect(await screen.findByRole('heading', { level: 1, name: evil })).toBeInTheDocument();
    const table = await screen.findByRole('grid', { name: 'Discovered Peripherals' });
    expect(await within(table).findByText(evil)).toBeInTheDocument();
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });
});
