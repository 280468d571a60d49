// The application: providers, the start-up session check, then the router.
import { Suspense, useState } from 'react';
import { BrowserRouter, useLocation, useRoutes } from 'react-router';

import { useSessionCheck } from '../features/auth/hooks/use-session-check.ts';
import { preloadScreens } from './lazy-screen.tsx';
import { PageFallback } from './page-fallback.tsx';
import { AppProviders } from './providers.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { routes } from './routes.tsx';
import { createStore, type AppStore } from './store.ts';

// The declarative router: the app uses no loaders, actions or fetchers, and
// the data router's core would add 16 KiB gzip to the entry (docs/web.md).
function Screens() {
  const location = useLocation();
  preloadScreens(routes, location);
  const screens = useRoutes(routes);
  return (
    <RouteErrorBoundary location={location}>
      <Suspense fallback={<PageFallback />}>{screens}</Suspense>
    </RouteErrorBoundary>
  );
}

function Router() {
  const checked = useSessionCheck();
  if (!checked) return <PageFallback />;
  return (
    <BrowserRouter>
      <Screens />
    </BrowserRouter>
  );
}

export function App({ store: given }: { store?: AppStore }) {
  const [store] = useState(() => given ?? createStore());
  return (
    <AppProviders store={store}>
      <Router />
    </AppProviders>
  );
}
