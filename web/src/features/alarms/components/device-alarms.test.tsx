import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { applyLanguage } from '../../../lib/i18n.ts';
import { server } from '../../../testing/msw-server.ts';
import { nth } from '../../../testing/nth.ts';
import { GATEWAY_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { serveGateway } from '../../gateways/testing/gateway-fixtures.ts';
import GatewayDetailPage from '../../gateways/components/gateway-detail-page.tsx';
import { alarm } from '../testing/alarm-fixtures.ts';
import { emptyExtraReads } from '../../../testing/extra-reads.ts';
import { AlarmCountButton } from './alarm-count-button.tsx';

describe("a device's alarms on its page", () => {
  it('lists them with their lifecycle state, and opens one on the Alarms screen', async () => {
    const lists: URL[] = [];
    serveGateway();
    server.use(
      http.get('/api/alarms', ({ request }) => {
        lists.push(new URL(request.url));
        return HttpResponse.json({
          items: [
            alarm({ deviceId: GATEWAY_ID, deviceKind: 'gateway', type: 'tamper', severity: 'major', status: 'acknowledged' }),
            alarm({ id: 'b'.repeat(24), deviceId: GATEWAY_ID, deviceKind: 'gateway', status: 'closed' }),
          ],
          next: null,
        });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<GatewayDetailPage />, { route: `/gateways/${GATEWAY_ID}`, path: '/gateways/:gatewayId' });
    const grid = await screen.findByRole('grid', { name: 'Alarms' });
    const rows = within(grid).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^TamperMajorAcknowledged/),
      expect.stringMatching(/^LeakCriticalClosed/),
    ]);
    expect(lists[0]?.searchParams.get('device')).toBe(GATEWAY_ID);
    expect(screen.getByRole('link', { name: 'All alarms of this device' })).toHaveAttribute('href', `/alarms?device=${GATEWAY_ID}`);

    await user.click(within(nth(rows, 0)).getByText('Tamper'));
    expect(screen.getByTestId('location')).toHaveTextContent(`/alarms?device=${GATEWAY_ID}&alarm=a1a1a1a1a1a1a1a1a1a1a1a1`);
  });
});

describe('the count of active alarms in the shell', () => {
  it('shows the active alarms and leads to them', async () => {
    server.use(http.get('/api/alarms/counts', () => HttpResponse.json({ active: 3, acknowledged: 5, cleared: 0, closed: 9 })));
    renderWithProviders(<AlarmCountButton />);
    const button = await screen.findByRole('link', { name: 'Active alarms: 3' });
    expect(button).toHaveAttribute('href', '/alarms?status=active');
    expect(within(button).getByText('3')).toBeInTheDocument();
  });

  it('says so when there is none, in French too', async () => {
    server.use(...emptyExtraReads());
    await applyLanguage('fr');
    try {
      renderWithProviders(<AlarmCountButton />);
      expect(await screen.findByRole('link', { name: 'Aucune alarme active' })).toBeInTheDocument();
    } finally {
      await applyLanguage('en');
    }
  });
});
