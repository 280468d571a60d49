import { useTheme } from '@mui/material/styles';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { fakeSystemTheme } from '../../../testing/system-theme.ts';
import type { Preferences } from '../api/auth-api.ts';
import { ThemeMenuButton } from './theme-menu-button.tsx';

/** The palette in use, as the page is painted with it. */
function PaletteMode() {
  return <output data-testid="palette">{useTheme().palette.mode}</output>;
}

/** `PUT /api/auth/preferences` answered by `answer`; returns the bodies sent. */
function servePreferences(answer = (body: Preferences): Response => HttpResponse.json(body)) {
  const bodies: unknown[] = [];
  server.use(
    http.put('/api/auth/preferences', async ({ request }) => {
      const body = (await request.json()) as Preferences;
      bodies.push(body);
      return answer(body);
    }),
  );
  return bodies;
}

const render = () => renderWithProviders(<><ThemeMenuButton /><PaletteMode /></>);

async function choose(current: string, theme: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Theme: ${current}` }));
  await user.click(await screen.findByRole('menuitemradio', { name: theme }));
}

describe('the theme', () => {
  it("follows the system's light or dark setting by default, as it changes", () => {
    const system = fakeSystemTheme('dark');
    render();
    expect(screen.getByRole('button', { name: 'Theme: System' })).toBeInTheDocument();
    expect(screen.getByTestId('palette')).toHaveTextContent('dark');

    act(() => {
      system.become('light');
    });
    expect(screen.getByTestId('palette')).toHaveTextContent('light');
  });

  it('starts with the choice kept in this browser, before the server is asked', () => {
    fakeSystemTheme('light');
    localStorage.setItem('theme', 'dark');
    render();
    expect(screen.getByRole('button', { name: 'Theme: Dark' })).toBeInTheDocument();
    expect(screen.getByTestId('palette')).toHaveTextContent('dark');
  });

  it('applies a choice at once, keeps it in this browser and saves it for the user', async () => {
    const system = fakeSystemTheme('light');
    localStorage.setItem('lng', 'fr');
    const bodies = servePreferences();
    render();

    await choose('System', 'Dark');

    expect(screen.getByTestId('palette')).toHaveTextContent('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    await waitFor(() => { expect(bodies).toEqual([{ language: 'fr', theme: 'dark' }]); });
    expect(screen.getByRole('button', { name: 'Theme: Dark' })).toBeInTheDocument();

    // A chosen theme no longer follows the system.
    act(() => {
      system.become('light');
    });
    expect(screen.getByTestId('palette')).toHaveTextContent('dark');
  });

  it('keeps the choice on this device when the server cannot save it, and says so', async () => {
    fakeSystemTheme('dark');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    servePreferences(() => HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 }));
    render();

    await choose('System', 'Light');

    expect(await screen.findByText('The theme could not be saved to your account: it applies on this device only')).toBeInTheDocument();
    expect(screen.getByTestId('palette')).toHaveTextContent('light');
    expect(localStorage.getItem('theme')).toBe('light');
  });
});
