import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { nth } from '../../../testing/nth.ts';
import { meter, METER_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import type { ValveCommandStep } from '../api/valve-commands-api.ts';
import { detailHandlers } from '../testing/fixtures.ts';
import MeterDetailPage from './meter-detail-page.tsx';

function command(overrides: Partial<ValveCommandStep> = {}): ValveCommandStep {
  return {
    commandId: 'c'.repeat(24),
    requestId: METER_ID,
    resendOf: null,
    status: 'acked',
    detail: '',
    gatewaySerial: 'SG01000003',
    issuedBy: 'u-operator',
    issuedByName: 'olivia',
    issuedAt: '2026-11-22T16:29:22Z',
    sentAt: '2026-11-22T16:29:23Z',
    settledAt: '2026-11-22T16:29:25Z',
    ...overrides,
  };
}

function serve(commands: ValveCommandStep[]) {
  const timelineRequests: URL[] = [];
  server.use(
    http.get('/api/valve-commands', ({ request }) => {
      timelineRequests.push(new URL(request.url));
      return HttpResponse.json(commands);
    }),
    ...detailHandlers(meter()),
  );
  return timelineRequests;
}

const open = (role = 'operator') =>
  renderWithProviders(<MeterDetailPage />, {
    route: `/water-meters/${METER_ID}`,
    path: '/water-meters/:meterId',
    preloadedState: { session: { ...signedInSession(), role } },
  });

const table = () => screen.findByRole('grid', { name: 'Valve Commands' });

describe('the valve command timeline', () => {
  it('shows each command with who confirmed it, its gateway and its status', async () => {
    const requests = serve([command({ commandId: 'd'.repeat(24), status: 'failed', detail: 'valve stuck', settledAt: null }), command()]);
    open();
    const rows = within(await table()).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(nth(rows, 0)).getByText('Failed').closest('[data-status]')).toHaveAttribute('data-status', 'failed');
    expect(within(nth(rows, 0)).getByText('valve stuck')).toBeInTheDocument();
    expect(within(nth(rows, 1)).getByText('Acked: valve closed')).toBeInTheDocument();
    expect(within(nth(rows, 1)).getByText('olivia')).toBeInTheDocument();
    expect(within(nth(rows, 1)).getByText('GTW-SG01000003')).toBeInTheDocument();
    expect(requests[0]?.searchParams.get('meter')).toBe(METER_ID);
  });

  it('is not shown for a meter that never had a command', async () => {
    serve([]);
    open();
    await screen.findByRole('heading', { level: 1 });
    await screen.findByRole('grid', { name: 'Consumption Records' });
    expect(screen.queryByRole('grid', { name: 'Valve Commands' })).toBeNull();
  });

  it('resends a failed command, and reads the timeline again', async () => {
    const requests = serve([command({ status: 'failed', settledAt: null })]);
    let resent = '';
    server.use(
      http.post('/api/valve-commands/:id/resend', ({ params }) => {
        resent = String(params.id);
        return HttpResponse.json({ commandId: 'e'.repeat(24) });
      }),
    );
    const user = userEvent.setup();
    open();
    await user.click(await within(await table()).findByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Command sent again')).toBeInTheDocument();
    expect(resent).toBe('c'.repeat(24));
    await waitFor(() => { expect(requests.length).toBeGreaterThanOrEqual(2); });
  });

  it('says when no gateway can carry the resend', async () => {
    serve([command({ status: 'timed-out', settledAt: null })]);
    server.use(
      http.post('/api/valve-commands/:id/resend', () => HttpResponse.json({ code: 'no_gateway', message: 'x' }, { status: 409 })),
    );
    const user = userEvent.setup();
    open();
    await user.click(await within(await table()).findByRole('button', { name: 'Resend' }));
    expect(await screen.findByText(/no gateway has heard this meter/)).toBeInTheDocument();
  });

  it('offers an acked command no resend, and a viewer none at all', async () => {
    serve([command({ commandId: 'd'.repeat(24), status: 'failed' }), command()]);
    open('viewer');
    const grid = await table();
    await within(grid).findByText('Failed');
    expect(within(grid).queryByRole('button', { name: 'Resend' })).toBeNull();
  });
});
