// The application: providers, the start-up session check, then the router.
import { Suspense, useEffect, useState } from 'react';
import { BrowserRouter, useLocation, useRoutes, type Location } from 'react-router';

import { useSessionCheck } from '../features/auth/hooks/use-session-check.ts';
import { loadScreens } from './lazy-screen.tsx';
import { PageFallback } from './page-fallback.tsx';
import { AppProviders } from './providers.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';
import { routes } from './routes.tsx';
import { createStore, type AppStore } from './store.ts';

// The declarative router: the app uses no loaders, actions or fetchers, and
// the data router's core would add 16 KiB gzip to the entry (docs/web.md).
// A location is shown once its screens' chunks are in; until then the
// previous one stays (the spinner at start-up).
function Screens() {
  const location = useLocation();
  const [shown, setShown] = useState<Location | null>(null);
  useEffect(() => {
    let current = true;
    // A chunk that failed to load shows as the error screen once drawn.
    const show = () => {
      if (current) setShown(location);
    };
    loadScreens(routes, location).then(show, show);
    return () => {
      current = false;
    };
  }, [location]);
  const screens = useRoutes(routes, shown ?? location);
  if (!shown) return <PageFallback />;
  return (
    <RouteErrorBoundary location={shown}>
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
