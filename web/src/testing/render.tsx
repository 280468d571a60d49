// Renders a screen with the app's providers and a fresh store, at a route.
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';

import { AppProviders } from '../app/providers.tsx';
import type { RootState } from '../app/store.ts';
import { testStore } from './stores.ts';
import { signedInSession } from './tokens.ts';

interface Options {
  /** The URL the router starts at. */
  route?: string;
  /** The route pattern the element is mounted on, e.g. `/gateways/:gatewayId`. */
  path?: string;
  /** Starts signed in unless this is false. */
  signedIn?: boolean;
  preloadedState?: Partial<RootState>;
}

/** The current path and search, for asserting navigation: `screen.getByTestId('location')`. */
function LocationDisplay() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export function renderWithProviders(ui: ReactElement, options: Options = {}) {
  const { route = '/', path = '*', signedIn = true } = options;
  const session = signedIn
    ? signedInSession()
    : { token: null, role: null, username: null, userId: null };
  const store = testStore({ session, ...options.preloadedState });
  const result = render(
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={path} element={ui} />
          {path === '*' ? null : <Route path="*" element={null} />}
        </Routes>
        <LocationDisplay />
      </MemoryRouter>
    </AppProviders>,
  );
  return { store, ...result };
}
