// The application: providers, the start-up session check, then the router.
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';

import { useSessionCheck } from '../features/auth/hooks/use-session-check.ts';
import { AppProviders } from './providers.tsx';
import { routes } from './routes.tsx';
import { PageFallback } from './shell/shell.tsx';
import { createStore, type AppStore } from './store.ts';

function Router() {
  const checked = useSessionCheck();
  const [router] = useState(() => createBrowserRouter(routes));
  if (!checked) return <PageFallback />;
  return <RouterProvider router={router} />;
}

export function App({ store: given }: { store?: AppStore }) {
  const [store] = useState(() => given ?? createStore());
  return (
    <AppProviders store={store}>
      <Router />
    </AppProviders>
  );
}
