import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { METER_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { meterListsApi } from '../api/meter-lists-api.ts';
import { detailHandlers, json } from '../testing/fixtures.ts';
import MeterDetailPage from './meter-detail-page.tsx';

const URL_PATH = `/api/proxy/wmeters/shutdown-requests/${METER_ID}`;

let shutdownReads = 0;

/** A pending request; PATCHes are recorded and answered with `status`. */
function pendingShutdown(status = 200, code = 'denied') {
  const bodies: unknown[] = [];
  let current: string | null = 'requested';
  server.use(
    http.get(URL_PATH, () => {
      shutdownReads += 1;
      return json({ status: current });
    }),
    http.patch(URL_PATH, async ({ request }) => {
      const body = (await request.json()) as { status: string };
      bodies.push(body);
      if (status !== 200) return json({ code }, status);
      current = body.status;
      return json({ status: current });
    }),
    ...detailHandlers(),
  );
  return bodies;
}

const open = () => renderWithProviders(<MeterDetailPage />, { route: `/water-meters/${METER_ID}`, path: '/water-meters/:meterId' });

describe("The 'Shutdown Requested' dialog", () => {
  it('does not open without a pending request', async () => {
    server.use(...detailHandlers());
    open();
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes without answering on Close', async () => {
    const bodies = pendingShutdown();
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Shutdown Requested' });
    expect(dialog).toHaveTextContent('W-SM01000059 asks to be shut down.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(bodies).toEqual([]);
  });

  it.each([
    ['Reject', 'rejected', 1],
    ['Confirm', 'confirmed', 2],
  ])('sends the answer on %s', async (button, status, downCountReads) => {
    shutdownReads = 0;
    const bodies = pendingShutdown();
    const reads = { down: 0, all: 0 };
    server.use(
      http.get('/api/proxy/wmeters/down/count', () => { reads.down += 1; return json({ count: 0 }); }),
      http.get('/api/proxy/wmeters/count', () => { reads.all += 1; return json({ count: 5 }); }),
    );
    const { store } = open();
    // Counts another screen (the overview, the down list) holds.
    const held = [store.dispatch(meterListsApi.endpoints.meterCount.initiate('down')), store.dispatch(meterListsApi.endpoints.meterCount.initiate('all'))];
    await Promise.all(held);
    const dialog = await screen.findByRole('dialog', { name: 'Shutdown Requested' });
    await userEvent.click(within(dialog).getByRole('button', { name: button }));

    expect(await screen.findByText('Shutdown response sent')).toBeInTheDocument();
    expect(screen.getByText('Shutdown response sent').closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorInfo');
    expect(bodies).toEqual([{ status }]);
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    // The answer makes the request's status be read again; only a confirmed
    // shutdown changes the down meters, and nothing else is re-read.
    await waitFor(() => { expect(shutdownReads).toBe(2); });
    await waitFor(() => { expect(reads).toEqual({ down: downCountReads, all: 1 }); });
    for (const subscription of held) subscription.unsubscribe();
  });

  it.each([
    [403, 'Failed to send shutdown response: Action denied'],
    [409, 'Failed to send shutdown response'],
  ])('on a %i says %s and stays open', async (code, message) => {
    pendingShutdown(code);
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Shutdown Requested' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText(message, { exact: true })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Shutdown Requested' })).toBeInTheDocument();
  });

  it('says no gateway can close the valve when the server finds none, and stays open', async () => {
    pendingShutdown(409, 'no_gateway');
    open();
    const dialog = await screen.findByRole('dialog', { name: 'Shutdown Requested' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    const notice = await screen.findByText(/no gateway has heard this meter/);
    expect(notice).toHaveTextContent('Failed to send shutdown response: no gateway has heard this meter, so its valve cannot be closed remotely. The request is still pending.');
    expect(screen.queryByText('Shutdown response sent')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Shutdown Requested' })).toBeInTheDocument();
  });
});
