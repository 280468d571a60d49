import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { Notification } from '../../../lib/types.ts';
import { keepStylesInDocument } from '../../../testing/emotion-styles.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import { notificationStream } from '../testing/stream-handler.ts';
import { LiveIndicator } from './live-indicator.tsx';
import { NotificationBell } from './notification-bell.tsx';

// The spec's colours and weights are checked as computed styles.
keepStylesInDocument();

const USER_ID = signedInSession().userId;

const note = (seq: number, extra: Partial<Notification> = {}): Notification => ({
  seq,
  id: `n${String(seq)}`,
  deviceName: `W-AB12CD34E${String(seq)}`,
  deviceId: `65f0c0ffee00000000000${String(seq).padStart(3, '0')}`,
  deviceKind: 'meter',
  event: 'leak alert',
  status: 'raised',
  createdAt: '2025-05-01T10:00:00Z',
  ...extra,
});

function serve(list: Notification[], stream = notificationStream()) {
  server.use(
    http.get(`/api/notifications/${USER_ID}`, () => HttpResponse.json(list)),
    stream.handler,
  );
  return stream;
}

function renderBell() {
  const rendered = renderWithProviders(
    <>
      <LiveIndicator />
      <NotificationBell />
    </>,
  );
  return { ...rendered, user: userEvent.setup() };
}

async function openPanel(user: ReturnType<typeof userEvent.setup>, name: string | RegExp = /^Notifications/) {
  await user.click(await screen.findByRole('button', { name }));
  return screen.findByRole('dialog', { name: 'Notifications' });
}

describe('NotificationBell', () => {
  it("says 'No notifications' and offers no 'Clear All' when the list is empty", async () => {
    serve([]);
    const { user } = renderBell();

    const panel = await openPanel(user, 'Notifications');
    expect(within(panel).getByText('No notifications')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Clear All' })).not.toBeInTheDocument();
  });

  it('lists each notification as its device name, then event and status, with the count', async () => {
    serve([note(2, { event: 'battery low', status: 'cleared' }), note(1)]);
    const { user } = renderBell();

    const panel = await openPanel(user, 'Notifications (2)');
    const items = within(panel).getAllByRole('button').filter((b) => b.textContent !== 'Clear All');
    expect(items.map((b) => b.textContent)).toEqual([
      'W-AB12CD34E2battery low — cleared',
      'W-AB12CD34E1leak alert — raised',
    ]);
    expect(within(panel).getByText('W-AB12CD34E2')).toHaveStyle({ fontWeight: '700' });
    expect(within(panel).getByRole('button', { name: 'Clear All' })).toBeInTheDocument();
  });

  it("caps the badge at '99+'", async () => {
    serve(Array.from({ length: 100 }, (_, i) => note(100 - i)));
    renderBell();

    const bell = await screen.findByRole('button', { name: 'Notifications (99+)' });
    expect(bell).toHaveTextContent('99+');
  });

  it("clears the list with 'Clear All'", async () => {
    let cleared = 0;
    serve([note(2), note(1)]);
    server.use(
      http.delete('/api/notifications/user', () => {
        cleared += 1;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderBell();

    const panel = await openPanel(user, 'Notifications (2)');
    await user.click(within(panel).getByRole('button', { name: 'Clear All' }));

    expect(await within(panel).findByText('No notifications')).toBeInTheDocument();
    // The bell sits behind the open panel.
    expect(screen.getByRole('button', { name: 'Notifications', hidden: true })).toBeInTheDocument();
    await waitFor(() => { expect(cleared).toBe(1); });
  });

  it("puts the list back when 'Clear All' fails", async () => {
    serve([note(1)]);
    server.use(http.delete('/api/notifications/user', () => HttpResponse.json({ code: 'internal' }, { status: 500 })));
    const { user } = renderBell();

    const panel = await openPanel(user, 'Notifications (1)');
    await user.click(within(panel).getByRole('button', { name: 'Clear All' }));

    expect(await within(panel).findByText('W-AB12CD34E1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Notifications (1)', hidden: true })).toBeInTheDocument();
  });

  it("dismisses a clicked notification by its device name and opens the meter's page", async () => {
    const deleted: string[] = [];
    serve([
      note(3, { deviceName: 'W-0000000001', event: 'battery low' }),
      note(2),
      note(1, { deviceName: 'W-0000000001' }),
    ]);
    server.use(
      http.delete('/api/notifications/:deviceName', ({ params }) => {
        deleted.push(String(params.deviceName));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderBell();

    const panel = await openPanel(user, 'Notifications (3)');
    await user.click(within(panel).getByRole('button', { name: /W-0000000001.*battery low/ }));

    expect(screen.getByTestId('location')).toHaveTextContent(`/water-meters/${note(3).deviceId ?? ''}`);
    // Both notifications of that device go at once.
    expect(await screen.findByRole('button', { name: 'Notifications (1)' })).toBeInTheDocument();
    await waitFor(() => { expect(deleted).toEqual(['W-0000000001']); });
  });

  it("opens the gateway's page for a gateway notification", async () => {
    serve([note(1, { deviceName: 'GTW-0000000001', deviceKind: 'gateway', deviceId: 'abc' })]);
    server.use(http.delete('/api/notifications/:deviceName', () => new HttpResponse(null, { status: 204 })));
    const { user } = renderBell();

    const panel = await openPanel(user, 'Notifications (1)');
    await user.click(within(panel).getByText('GTW-0000000001'));

    expect(screen.getByTestId('location')).toHaveTextContent('/gateways/abc');
  });

  it('puts a notification back when its dismissal is denied', async () => {
    serve([note(1)]);
    server.use(
      http.delete('/api/notifications/:deviceName', () => HttpResponse.json({ code: 'forbidden' }, { status: 403 })),
    );
    const { user } = renderBell();

    const panel = await openPanel(user, 'Notifications (1)');
    await user.click(within(panel).getByText('W-AB12CD34E1'));

    expect(await screen.findByRole('button', { name: 'Notifications (1)' })).toBeInTheDocument();
    const reopened = await openPanel(user, 'Notifications (1)');
    expect(within(reopened).getByText('W-AB12CD34E1')).toBeInTheDocument();
  });

  it('renders a device name with markup as text', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    serve([note(1, { deviceName: hostile, event: '<b>bold</b>' })]);
    const { user } = renderBell();

    const panel = await openPanel(user, 'Notifications (1)');
    expect(within(panel).getByText(hostile)).toBeInTheDocument();
    expect(within(panel).getByText('<b>bold</b> — raised')).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
    expect(document.querySelector('b')).toBeNull();
  });
});
