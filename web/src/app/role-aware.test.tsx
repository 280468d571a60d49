// Role-aware UI: a viewer is offered no action it may not take;
// an operator is offered the device actions; a demoted admin loses theirs.
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import GatewayDetailPage from '../features/gateways/components/gateway-detail-page.tsx';
import { serveGateway } from '../features/gateways/testing/gateway-fixtures.ts';
import MeterDetailPage from '../features/meters/components/meter-detail-page.tsx';
import { detailHandlers, json } from '../features/meters/testing/fixtures.ts';
import GatewayRegistrationPage from '../features/registration/components/gateway-registration-page.tsx';
import UsersPage from '../features/users/components/users-page.tsx';
import { server } from '../testing/msw-server.ts';
import { gateway, GATEWAY_ID, meter, METER_ID } from '../testing/records.ts';
import { renderWithProviders } from '../testing/render.tsx';
import { fakeToken, signedInSession } from '../testing/tokens.ts';
import { NavList } from './shell/nav-list.tsx';

const as = (role: string) => ({ preloadedState: { session: { ...signedInSession(), role } } });

describe('a viewer', () => {
  it('sees a gateway with no Edit or Delete', async () => {
    serveGateway(gateway({ lastseen: null }));
    renderWithProviders(<GatewayDetailPage />, { route: `/gateways/${GATEWAY_ID}`, path: '/gateways/:gatewayId', ...as('viewer') });
    await screen.findByRole('heading', { level: 1, name: 'GTW-SG01000003' });
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('sees a meter and its pending shutdown request with no Edit, Delete, Reject or Confirm', async () => {
    server.use(
      http.get(`/api/proxy/wmeters/shutdown-requests/${METER_ID}`, () => json({ status: 'requested' })),
      ...detailHandlers(meter({ lastseen: null })),
    );
    renderWithProviders(<MeterDetailPage />, { route: `/water-meters/${METER_ID}`, path: '/water-meters/:meterId', ...as('viewer') });
    const dialog = await screen.findByRole('dialog', { name: 'Shutdown Requested' });
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit', hidden: true })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete', hidden: true })).toBeNull();
  });

  it('is told it may not register, with no form, and has no registration entries in the menu', () => {
    renderWithProviders(<GatewayRegistrationPage />, as('viewer'));
    expect(screen.getByText(/Your role can view devices but not register them/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register' })).toBeNull();
    expect(screen.queryByLabelText('Serial Number')).toBeNull();
  });

  it('has nine menu entries, Alarms and the Map among them, without the registrations', () => {
    renderWithProviders(<NavList />, as('viewer'));
    const links = screen.getAllByRole('link').map((link) => link.textContent);
    expect(links).toHaveLength(9);
    expect(links).toContain('Alarms');
    expect(links).toContain('Map');
    expect(links).not.toContain('Gateway Registration');
  });
});

describe('an operator', () => {
  it('is offered Edit and Delete, Register, and every menu entry', async () => {
    serveGateway(gateway({ lastseen: null }));
    renderWithProviders(<GatewayDetailPage />, { route: `/gateways/${GATEWAY_ID}`, path: '/gateways/:gatewayId', ...as('operator') });
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('sees the registration form and eleven menu entries', () => {
    renderWithProviders(<><GatewayRegistrationPage /><NavList /></>, as('operator'));
    expect(screen.getByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(screen.getAllByRole('link')).toHaveLength(11);
  });
});

describe('an admin demoted while signed in', () => {
  it('follows the refreshed token: the Users entry and page are no longer offered', async () => {
    const admin = fakeToken(900, { role: 'admin' });
    const viewer = fakeToken(900, { role: 'viewer', demoted: true });
    server.use(
      http.post('/api/auth/refresh', () => HttpResponse.json({ accessToken: viewer })),
      http.get('/api/admin/users', ({ request }) =>
        request.headers.get('Authorization') === `Bearer ${viewer}`
          ? HttpResponse.json({ code: 'forbidden', message: 'Your role does not allow this action' }, { status: 403 })
          : HttpResponse.json({ code: 'unauthorized', message: 'The access token was revoked; refresh it' }, { status: 401 }),
      ),
    );
    const { store } = renderWithProviders(<><NavList /><UsersPage /></>, {
      route: '/admin/users',
      preloadedState: { session: { ...signedInSession(admin), role: 'admin' } },
    });
    expect(screen.getByRole('link', { name: 'Users' })).toBeInTheDocument();

    expect(await screen.findByText('Only admins can manage users. Your role does not allow it.')).toBeInTheDocument();
    expect(store.getState().session.role).toBe('viewer');
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New user' })).toBeNull();
  });
});
