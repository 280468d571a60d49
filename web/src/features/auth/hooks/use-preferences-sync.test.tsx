import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { AppProviders } from '../../../app/providers.tsx';
import { server } from '../../../testing/msw-server.ts';
import { testStore } from '../../../testing/stores.ts';
import { signedInSession } from '../../../testing/tokens.ts';
import type { Preferences } from '../api/auth-api.ts';
import { useLanguageSwitch } from './use-language-switch.ts';
import { usePreferencesSync } from './use-preferences-sync.ts';

/** `/api/auth/me` with `preferences`, and their save (`answer`); returns the bodies saved. */
function serve(preferences: Preferences, answer = (body: Preferences): Response => HttpResponse.json(body)) {
  const saved: unknown[] = [];
  server.use(
    http.get('/api/auth/me', () =>
      HttpResponse.json({ id: signedInSession().userId, username: 'alice', role: 'admin', mustChangePassword: false, preferences }),
    ),
    http.put('/api/auth/preferences', async ({ request }) => {
      const body = (await request.json()) as Preferences;
      saved.push(body);
      return answer(body);
    }),
  );
  return saved;
}

/** A page load of the signed-in app: a fresh store, as after a reload. */
function load<T>(hook: () => T) {
  const store = testStore({ session: signedInSession() });
  const wrapper = ({ children }: { children: ReactNode }) => <AppProviders store={store}>{children}</AppProviders>;
  return renderHook(hook, { wrapper });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(() => {
  sessionStorage.clear();
});

describe("the user's preferences kept on the server", () => {
  it("apply the server's language: stored here, then one reload", async () => {
    serve({ language: 'fr', theme: 'system' });
    const reload = vi.fn();
    load(() => { usePreferencesSync(reload); });

    await waitFor(() => { expect(reload).toHaveBeenCalledTimes(1); });
    expect(localStorage.getItem('lng')).toBe('fr');
  });

  it('reload once only, when the language does not take after the reload', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const saved = serve({ language: 'fr', theme: 'system' });
    const reload = vi.fn();
    const first = load(() => { usePreferencesSync(reload); });
    await waitFor(() => { expect(reload).toHaveBeenCalledTimes(1); });
    first.unmount();

    // The browser would not keep it: the page comes back in English.
    localStorage.setItem('lng', 'en');
    load(() => { usePreferencesSync(reload); });
    await settle();

    expect(reload).toHaveBeenCalledTimes(1);
    expect(saved).toEqual([]);
  });

  it('do nothing when they agree with this browser', async () => {
    localStorage.setItem('lng', 'fr');
    const saved = serve({ language: 'fr', theme: 'system' });
    const reload = vi.fn();
    load(() => { usePreferencesSync(reload); });
    await settle();
    expect(reload).not.toHaveBeenCalled();
    expect(saved).toEqual([]);
  });

  it("are given this browser's language when the server has none, and apply the server's theme", async () => {
    localStorage.setItem('lng', 'fr');
    const saved = serve({ language: null, theme: 'dark' });
    const reload = vi.fn();
    load(() => { usePreferencesSync(reload); });

    await waitFor(() => { expect(saved).toEqual([{ language: 'fr', theme: 'dark' }]); });
    expect(localStorage.getItem('theme')).toBe('dark');
    await settle();
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('the language switch', () => {
  it('stores the other language, saves it for the user, then reloads', async () => {
    const saved = serve({ language: 'en', theme: 'light' });
    const reload = vi.fn();
    const { result } = load(() => useLanguageSwitch(reload));

    await result.current();

    expect(saved).toEqual([{ language: 'fr', theme: 'system' }]);
    expect(localStorage.getItem('lng')).toBe('fr');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("still reloads when the save fails, and saves it after the reload rather than take the server's older language", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let saving = false;
    const saved = serve({ language: 'en', theme: 'system' }, (body) =>
      saving ? HttpResponse.json(body) : HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 }),
    );
    const reload = vi.fn();
    const { result, unmount } = load(() => useLanguageSwitch(reload));
    await result.current();
    expect(reload).toHaveBeenCalledTimes(1);
    unmount();

    saving = true;
    load(() => { usePreferencesSync(reload); });

    await waitFor(() => { expect(saved).toHaveLength(2); });
    expect(saved[1]).toEqual({ language: 'fr', theme: 'system' });
    expect(localStorage.getItem('lng')).toBe('fr');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
