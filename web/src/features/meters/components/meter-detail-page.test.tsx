import { screen, within } from '@testing-library/react';
import { delay, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { keepStylesInDocument } from '../../../testing/emotion-styles.ts';
import { server } from '../../../testing/msw-server.ts';
import { GATEWAY_ID, meter, METER_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { detailHandlers, json } from '../testing/fixtures.ts';
import MeterDetailPage from './meter-detail-page.tsx';

// The spec's colours and weights are checked as computed styles.
keepStylesInDocument();

const PATH = '/water-meters/:meterId';
const open = (param: string) => renderWithProviders(<MeterDetailPage />, { route: `/water-meters/${param}`, path: PATH });

function fieldValue(label: string) {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('Water meter detail', () => {
  it('shows a spinner while the meter loads', async () => {
    server.use(http.get(`/api/proxy/wmeters/${METER_ID}`, async () => { await delay('infinite'); }));
    open(METER_ID);
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
  });

  it('loads by id and shows every field of the left panel', async () => {
    server.use(...detailHandlers(meter({ criticalState: true, lastseen: null })));
    open(METER_ID);

    expect(await screen.findByRole('heading', { level: 1, name: 'W-SM01000059' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Critical' })).toHaveAttribute('data-colour', 'red');
    const labels = within(screen.getByRole('region', { name: 'Water meter details' }))
      .getAllByText((_, el) => el?.tagName === 'DT')
      .map((dt) => dt.textContent);
    expect(labels).toEqual([
      'Device Id',
      'Last Seen',
      'BLE Address',
      'Serial Number',
      'Total Consumption',
      'Registered At',
      'Last Gateway Id',
      'GPS Location',
      'Device Status',
    ]);
    expect(fieldValue('Device Id')).toBe(METER_ID);
    expect(fieldValue('Last Seen')).toBe('Never');
    expect(fieldValue('BLE Address')).toBe('5B:01:00:00:3B:01');
    expect(fieldValue('Serial Number')).toBe('SM01000059');
    expect(fieldValue('Total Consumption')).toBe('12 L');
    expect(fieldValue('Last Gateway Id')).toBe(GATEWAY_ID);
    expect(fieldValue('GPS Location')).toBe('4.813022, 45.759247');
    expect(fieldValue('Device Status')).toBe('Up');
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it.each([
    ['a serial number', 'SM01000059'],
    ["a serial number with 'W-'", 'W-SM01000059'],
  ])('loads by %s', async (_, param) => {
    let asked: string | undefined;
    server.use(
      http.get('/api/proxy/wmeters/serial/:serial', ({ params }) => {
        asked = params.serial as string;
        return json(meter());
      }),
      ...detailHandlers(),
    );
    open(param);
    expect(await screen.findByRole('heading', { level: 1, name: 'W-SM01000059' })).toBeInTheDocument();
    expect(asked).toBe('SM01000059');
    expect(fieldValue('Device Id')).toBe(METER_ID);
  });

  it.each([404, 500])("says 'Failed to load water meter.' in red on a %i", async (status) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/proxy/wmeters/serial/:serial', () => json({ code: 'not_found' }, status)));
    open('W-NOPE000000');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load water meter.');
    expect(alert).toHaveStyle({ color: 'rgb(211, 47, 47)' });
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });

  it('renders a device name as text, never as HTML', async () => {
    server.use(...detailHandlers(meter({ deviceName: '<img src=x onerror=alert(1)>' })));
    const { container } = open(METER_ID);
    expect(await screen.findByRole('heading', { level: 1, name: '<img src=x onerror=alert(1)>' })).toBeInTheDocument();
    expect(container.querySelector('img')).toBeNull();
  });
});
