// The bell and the indicator fed by the real event stream (MSW streams it).
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';

import type { AppStore } from '../../../app/store.ts';
import { api } from '../../../lib/api.ts';
import { meterDetailApi } from '../../meters/api/meter-detail-api.ts';
import type { Notification } from '../../../lib/types.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { fakeToken, signedInSession } from '../../../testing/tokens.ts';
import { streamState } from '../hooks/stream-status.ts';
import { notificationStream } from '../testing/stream-handler.ts';
import { LiveIndicator } from './live-indicator.tsx';
import { NotificationBell } from './notification-bell.tsx';

const SESSION = signedInSession();
const CONNECTED = 'Live notifications: connected';
const DISCONNECTED = 'Live notifications: disconnected';

const note = (seq: number): Notification => ({
  seq,
  id: `n${String(seq)}`,
  deviceName: `W-00000000${String(seq).padStart(2, '0')}`,
  deviceId: `65f0c0ffee000000000000${String(seq).padStart(2, '0')}`,
  deviceKind: 'meter',
  event: 'leak alert',
  status: 'raised',
  createdAt: '2025-05-01T10:00:00Z',
});

let store: AppStore | null = null;

// setup-tests.ts unmounts and releases the store, which closes its stream.
afterEach(() => {
  store = null;
});

function renderLive(list: Notification[], stream: ReturnType<typeof notificationStream>) {
  server.use(http.get(`/api/notifications/${SESSION.userId}`, () => HttpResponse.json(list)), stream.handler);
  const rendered = renderWithProviders(
    <>
      <LiveIndicator />
      <NotificationBell />
    </>,
    { preloadedState: { session: SESSION } },
  );
  store = rendered.store;
  return rendered;
}

const indicator = (name: string) => screen.findByRole('img', { name });

describe('the live notification stream', () => {
  it('opens one stream with the bearer token, resuming after the newest listed, and prepends what arrives', async () => {
    const stream = notificationStream();
    renderLive([note(5), note(4)], stream);
    const user = userEvent.setup();

    expect(screen.getByRole('img', { name: DISCONNECTED })).toBeInTheDocument();
    expect(await indicator(CONNECTED)).toBeInTheDocument();
    expect(stream.requests).toHaveLength(1);
    const request = stream.requests[0];
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${SESSION.token}`);
    expect(request?.headers.get('Last-Event-ID')).toBe('5');
    expect(request?.headers.get('Accept')).toBe('text/event-stream');

    act(() => { stream.send(note(6)); });
    expect(await screen.findByRole('button', { name: 'Notifications (3)' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Notifications (3)' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    act(() => {
      stream.send(note(7));
      stream.send(note(6)); // already listed: ignored
    });
    await waitFor(() => {
      const names = within(panel).getAllByText(/^W-/).map((el) => el.textContent);
      expect(names).toEqual(['W-0000000007', 'W-0000000006', 'W-0000000005', 'W-0000000004']);
    });
  });

  it('shows disconnected when the server ends the stream, then reconnects after the retry and resumes', async () => {
    const stream = notificationStream();
    renderLive([], stream);

    expect(await indicator(CONNECTED)).toBeInTheDocument();
    expect(stream.requests[0]?.headers.get('Last-Event-ID')).toBe('0');
    act(() => {
      stream.send(note(1));
      stream.end();
    });

    expect(await indicator(DISCONNECTED)).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: CONNECTED }, { timeout: 3000 })).toBeInTheDocument();
    expect(stream.requests).toHaveLength(2);
    expect(stream.requests[1]?.headers.get('Last-Event-ID')).toBe('1');
    expect(screen.getByRole('button', { name: 'Notifications (1)' })).toBeInTheDocument();
  });

  it('refreshes the token on a 401 and reconnects with the new one', async () => {
    const fresh = fakeToken(900, { sub: 'fresh' });
    let refreshes = 0;
    server.use(
      http.post('/api/auth/refresh', () => {
        refreshes += 1;
        return HttpResponse.json({ accessToken: fresh });
      }),
    );
    const stream = notificationStream((request) =>
      request.headers.get('Authorization') === `Bearer ${fresh}`
        ? undefined
        : HttpResponse.json({ code: 'unauthorized', message: 'No valid access token' }, { status: 401 }),
    );
    renderLive([], stream);

    expect(await indicator(CONNECTED)).toBeInTheDocument();
    expect(refreshes).toBe(1);
    expect(stream.requests.map((r) => r.headers.get('Authorization'))).toEqual([
      `Bearer ${SESSION.token}`,
      `Bearer ${fresh}`,
    ]);
    expect(store?.getState().session.token).toBe(fresh);
  });

  it('stays disconnected when the refresh fails', async () => {
    server.use(
      http.post('/api/auth/refresh', () => HttpResponse.json({ code: 'unauthorized' }, { status: 401 })),
    );
    const stream = notificationStream(() => HttpResponse.json({ code: 'unauthorized' }, { status: 401 }));
    renderLive([], stream);

    await waitFor(() => { expect(store?.getState().session.token).toBeNull(); });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stream.requests).toHaveLength(1);
    expect(screen.getByRole('img', { name: DISCONNECTED })).toBeInTheDocument();
  });

  it('puts a dismissed notification back when the request fails, keeping one that arrived meanwhile', async () => {
    let answer: (response: Response) => void = () => undefined;
    server.use(
      http.delete('/api/notifications/:deviceName', () => new Promise<Response>((resolve) => { answer = resolve; })),
    );
    const stream = notificationStream();
    renderLive([note(2), note(1)], stream);
    const user = userEvent.setup();
    expect(await indicator(CONNECTED)).toBeInTheDocument();

    // The indicator can turn before the bell renders the listed count.
    await user.click(await screen.findByRole('button', { name: 'Notifications (2)' }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    await user.click(within(panel).getByText('W-0000000002'));
    expect(await screen.findByRole('button', { name: 'Notifications (1)' })).toBeInTheDocument();

    act(() => { stream.send(note(3)); });
    expect(await screen.findByRole('button', { name: 'Notifications (2)' })).toBeInTheDocument();
    act(() => { answer(HttpResponse.json({ code: 'forbidden' }, { status: 403 })); });

    expect(await screen.findByRole('button', { name: 'Notifications (3)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Notifications (3)' }));
    const reopened = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(reopened).getAllByText(/^W-/).map((el) => el.textContent)).toEqual([
      'W-0000000003',
      'W-0000000002',
      'W-0000000001',
    ]);
  });

  it('keeps the stream while the cache entry lives, and closes it when the entry goes away', async () => {
    const stream = notificationStream();
    const { store: own, unmount } = renderLive([], stream);
    expect(await indicator(CONNECTED)).toBeInTheDocument();

    unmount();
    expect(streamState(SESSION.userId)).toBe('live');
    own.dispatch(api.util.resetApiState());

    await waitFor(() => { expect(streamState(SESSION.userId)).toBe('offline'); });
    expect(stream.requests[0]?.signal.aborted).toBe(true);
    expect(stream.requests).toHaveLength(1);
  });
});

describe('change hints on the stream', () => {
  it('refetch what shows the devices that changed, and are not notifications', async () => {
    const meterId = '65f0c0ffee00000000000001';
    let reads = 0;
    server.use(
      http.get(`/api/proxy/wmeters/${meterId}`, () => {
        reads += 1;
        return HttpResponse.json({ _id: meterId });
      }),
    );
    const stream = notificationStream();
    renderLive([note(1)], stream);
    const watched = store?.dispatch(meterDetailApi.endpoints.meterDetail.initiate({ by: 'id', id: meterId }));
    await waitFor(() => { expect(reads).toBe(1); });
    expect(await indicator(CONNECTED)).toBeInTheDocument();

    act(() => {
      stream.hint({ devices: [{ id: '65f0c0ffee00000000000009', kind: 'meter', changes: ['reading'] }], changes: ['reading'], complete: true });
    });
    act(() => {
      stream.hint({ devices: [{ id: meterId, kind: 'meter', changes: ['reading'] }], changes: ['reading'], complete: true });
    });
    await waitFor(() => { expect(reads).toBe(2); });
    expect(await screen.findByRole('button', { name: 'Notifications (1)' })).toBeInTheDocument();
    watched?.unsubscribe();
  });
});
