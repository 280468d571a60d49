import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { gateway, GATEWAY_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { serveGateway } from '../testing/gateway-fixtures.ts';
import GatewayDetailPage from './gateway-detail-page.tsx';

interface Seen {
  patches: unknown[];
  checks: URL[];
}

function serve(options: { exists?: boolean; checkStatus?: number; patchStatus?: number } = {}): Seen {
  const seen: Seen = { patches: [], checks: [] };
  serveGateway(gateway());
  server.use(
    http.get('/api/proxy/fieldcheck/:value', ({ request }) => {
      seen.checks.push(new URL(request.url));
      if (options.checkStatus) return HttpResponse.json({ code: 'x' }, { status: options.checkStatus });
      return HttpResponse.json({ exists: options.exists ?? false });
    }),
    http.patch(`/api/proxy/gateways/${GATEWAY_ID}`, async ({ request }) => {
      seen.patches.push(await request.json());
      if (options.patchStatus) return HttpResponse.json({ code: 'x' }, { status: options.patchStatus });
      return HttpResponse.json(gateway());
    }),
  );
  return seen;
}

async function startEditing() {
  renderWithProviders(<GatewayDetailPage />, { route: `/gateways/${GATEWAY_ID}`, path: '/gateways/:gatewayId' });
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Edit' }));
  return {
    user,
    phone: screen.getByRole('textbox', { name: 'Phone Number' }),
    gps: screen.getByRole('textbox', { name: 'GPS Coordinates' }),
    save: screen.getByRole('button', { name: 'Save' }),
  };
}

describe('gateway edit', () => {
  it('starts from the current values, GPS with six decimals', async () => {
    serve();
    const { phone, gps } = await startEditing();
    expect(phone).toHaveValue('0701000003');
    expect(gps).toHaveValue('4.817700, 45.760000');
  });

  it('checks the phone number on blur and on save, and editing clears the message', async () => {
    const seen = serve();
    const { user, phone, save } = await startEditing();

    await user.clear(phone);
    await user.type(phone, '12345');
    await user.tab();
    expect(screen.getByText('Phone number must be exactly 10 digits')).toBeInTheDocument();
    await user.type(phone, '6');
    expect(screen.queryByText('Phone number must be exactly 10 digits')).not.toBeInTheDocument();

    await user.click(save);
    expect(screen.getByText('Phone number must be exactly 10 digits')).toBeInTheDocument();
    expect(seen.patches).toEqual([]);
    expect(seen.checks).toEqual([]);
  });

  it('rejects a phone number already in use', async () => {
    const seen = serve({ exists: true });
    const { user, phone, save } = await startEditing();
    await user.clear(phone);
    await user.type(phone, '0799999999');
    await user.click(save);

    expect(await screen.findByText('Phone number already in use')).toBeInTheDocument();
    expect(seen.checks[0]?.pathname).toBe('/api/proxy/fieldcheck/0799999999');
    expect(seen.checks[0]?.searchParams.get('fieldName')).toBe('phoneNumber');
    expect(seen.patches).toEqual([]);
  });

  it('says when the uniqueness check fails', async () => {
    const seen = serve({ checkStatus: 500 });
    const { user, phone, save } = await startEditing();
    await user.clear(phone);
    await user.type(phone, '0799999999');
    await user.click(save);
    expect(await screen.findByText('Error checking phone number')).toBeInTheDocument();
    expect(seen.patches).toEqual([]);
  });

  it('normalizes GPS on blur and rejects an invalid one', async () => {
    const seen = serve();
    const { user, gps, save } = await startEditing();

    await user.clear(gps);
    await user.type(gps, '5.1,45.2');
    await user.tab();
    expect(gps).toHaveValue('5.100000, 45.200000');

    await user.clear(gps);
    await user.type(gps, '5.1;45.2');
    await user.tab();
    expect(screen.getByText('Invalid GPS format. Use longitude,latitude')).toBeInTheDocument();
    await user.click(save);
    expect(seen.patches).toEqual([]);
  });

  it('closes without a request when nothing changed', async () => {
    const seen = serve();
    const { user, gps, save } = await startEditing();
    await user.clear(gps);
    await user.type(gps, '4.8177,45.76');
    await user.click(save);

    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(seen.patches).toEqual([]);
    expect(seen.checks).toEqual([]);
  });

  it('sends only the changed GPS', async () => {
    const seen = serve();
    const { user, gps, save } = await startEditing();
    await user.clear(gps);
    await user.type(gps, ' -5.1234567 , 45.2 ');
    await user.click(save);

    expect(await screen.findByText('Saved successfully')).toBeInTheDocument();
    expect(seen.patches).toEqual([{ gpsCoordinates: [-5.123457, 45.2] }]);
    expect(seen.checks).toEqual([]);
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('sends only the changed phone number after checking it', async () => {
    const seen = serve();
    const { user, phone, save } = await startEditing();
    await user.clear(phone);
    await user.type(phone, '0799999999');
    await user.click(save);

    expect(await screen.findByText('Saved successfully')).toBeInTheDocument();
    expect(seen.checks).toHaveLength(1);
    expect(seen.patches).toEqual([{ phoneNumber: '0799999999' }]);
  });

  it.each([
    [403, 'Save failed: Action denied'],
    [500, 'Save failed'],
  ])('shows the save failure for %i and stays in edit', async (status, message) => {
    const seen = serve({ patchStatus: status });
    const { user, gps, save } = await startEditing();
    await user.clear(gps);
    await user.type(gps, '5,45');
    await user.click(save);

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(seen.patches).toHaveLength(1);
    await waitFor(() => { expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled(); });
  });
});
