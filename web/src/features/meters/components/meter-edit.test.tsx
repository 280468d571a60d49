import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Route, Routes, useNavigate } from 'react-router';

import { server } from '../../../testing/msw-server.ts';
import { meter, METER_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { detailHandlers, json } from '../testing/fixtures.ts';
import MeterDetailPage from './meter-detail-page.tsx';

const open = () => renderWithProviders(<MeterDetailPage />, { route: `/water-meters/${METER_ID}`, path: '/water-meters/:meterId' });

/** Records the PATCHes of the meter and answers them with `status`. */
function patches(status = 200) {
  const bodies: unknown[] = [];
  server.use(
    http.patch(`/api/proxy/wmeters/${METER_ID}`, async ({ request }) => {
      bodies.push(await request.json());
      return status === 200 ? json(meter()) : json({ code: 'forbidden' }, status);
    }),
  );
  return bodies;
}

async function startEditing() {
  await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
  return screen.getByRole('textbox', { name: 'GPS Coordinates' });
}

describe('Water meter edit', () => {
  it('normalizes the GPS on blur and sends only the coordinates', async () => {
    server.use(...detailHandlers());
    const bodies = patches();
    open();
    const gps = await startEditing();
    expect(gps).toHaveValue('4.813022, 45.759247');

    await userEvent.clear(gps);
    await userEvent.type(gps, '4.8130224,45.7592');
    await userEvent.tab();
    expect(gps).toHaveValue('4.813022, 45.759200');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved successfully')).toBeInTheDocument();
    expect(bodies).toEqual([{ gpsCoordinates: [4.813022, 45.7592] }]);
    expect(screen.queryByRole('textbox', { name: 'GPS Coordinates' })).toBeNull();
  });

  it.each([
    ['unchanged coordinates', '4.8130221, 45.759247'],
    ['unparseable coordinates', 'north,south'],
  ])('closes without a request for %s', async (_, typed) => {
    server.use(...detailHandlers());
    const bodies = patches();
    open();
    const gps = await startEditing();
    await userEvent.clear(gps);
    await userEvent.type(gps, typed);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('says when typed coordinates cannot be read', async () => {
    server.use(...detailHandlers());
    open();
    const gps = await startEditing();
    await userEvent.clear(gps);
    await userEvent.type(gps, '200,1');
    await userEvent.tab();
    expect(screen.getByText('Invalid GPS format. Use longitude,latitude')).toBeInTheDocument();
    await userEvent.type(gps, '0');
    expect(screen.queryByText('Invalid GPS format. Use longitude,latitude')).toBeNull();
  });

  it.each([
    [403, 'Save failed: Action denied'],
    [500, 'Save failed'],
  ])('on a %i says %s', async (status, message) => {
    server.use(...detailHandlers());
    patches(status);
    open();
    const gps = await startEditing();
    await userEvent.clear(gps);
    await userEvent.type(gps, '1,2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message, { exact: true })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'GPS Coordinates' })).toBeInTheDocument();
  });
});

/** The meters list, then a click into the meter, so that Back has somewhere to go. */
function FromList() {
  const navigate = useNavigate();
  return (
    <Routes>
      <Route path="/water-meters" element={<button onClick={() => { void navigate(`/water-meters/${METER_ID}`); }}>open</button>} />
      <Route path="/water-meters/:meterId" element={<MeterDetailPage />} />
    </Routes>
  );
}

describe('Water meter delete', () => {
  it('is not offered for a meter that has been seen', async () => {
    server.use(...detailHandlers(meter({ lastseen: '2026-11-22T16:29:19Z' })));
    open();
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('deletes a never-seen meter after a confirmation, then goes back', async () => {
    let deleted = 0;
    server.use(
      ...detailHandlers(meter({ lastseen: null })),
      http.delete(`/api/proxy/wmeters/${METER_ID}`, () => {
        deleted += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    renderWithProviders(<FromList />, { route: '/water-meters' });
    await userEvent.click(screen.getByRole('button', { name: 'open' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));

    const dialog = await screen.findByRole('dialog', { name: 'Delete water meter' });
    expect(dialog).toHaveTextContent('Delete W-SM01000059? This cannot be undone.');
    expect(deleted).toBe(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('button', { name: 'open' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/water-meters$/);
    expect(deleted).toBe(1);
  });

  it.each([
    [403, 'Delete failed: Action denied'],
    [409, 'Delete failed'],
  ])('stays on the page on a %i and says %s', async (status, message) => {
    server.use(
      ...detailHandlers(meter({ lastseen: null })),
      http.delete(`/api/proxy/wmeters/${METER_ID}`, () => json({ code: 'denied' }, status)),
    );
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText(message, { exact: true })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/water-meters/${METER_ID}`);
  });
});
