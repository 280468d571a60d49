import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { meter } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { json, unanswered } from '../testing/fixtures.ts';
import DownMetersPage from './down-meters-page.tsx';

const EMPTY = 'No down meter found';
const HINT = 'This page displays devices explicitly switched off by shutdown request.';

describe('Down Water Meters', () => {
  it('shows a spinner while loading', async () => {
    server.use(...unanswered('/api/proxy/wmeters/down'));
    renderWithProviders(<DownMetersPage />);
    expect(await screen.findByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    expect(screen.queryByText(EMPTY)).toBeNull();
  });

  it('lists the down meters with their total', async () => {
    server.use(
      http.get('/api/proxy/wmeters/down/count', () => json({ count: 1 })),
      http.get('/api/proxy/wmeters/down', () => json([meter({ deviceName: 'Shut', deviceStatus: 'Down', lastseen: null })])),
    );
    renderWithProviders(<DownMetersPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Down Water Meters (1)' })).toBeInTheDocument();
    const card = screen.getByRole('article');
    expect(within(card).getByRole('heading', { name: 'Shut' })).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Inactive' })).toHaveAttribute('data-colour', 'gray');
    expect(card).toHaveTextContent('Last Seen: Never');
    expect(card).toHaveTextContent('Critical: No');
  });

  it('explains an empty list', async () => {
    server.use(
      http.get('/api/proxy/wmeters/down/count', () => json({ count: 0 })),
      http.get('/api/proxy/wmeters/down', () => json([])),
    );
    renderWithProviders(<DownMetersPage />);
    expect(await screen.findByText(EMPTY)).toBeInTheDocument();
    expect(screen.getByText(HINT)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Down Water Meters (0)');
  });

  it('shows the empty state when the list fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/proxy/wmeters/down/count', () => json({ code: 'internal' }, 500)),
      http.get('/api/proxy/wmeters/down', () => json({ code: 'internal' }, 500)),
    );
    renderWithProviders(<DownMetersPage />);
    expect(await screen.findByText(EMPTY)).toBeInTheDocument();
    expect(screen.getByText(HINT)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Down Water Meters$/);
  });
});
