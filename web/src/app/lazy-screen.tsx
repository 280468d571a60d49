// Every screen is a chunk of its own, the shell included. As a data router
// would, the chunks a location matches (the shell's and the page's) load
// side by side before it is shown (`loadScreens`), so no screen suspends:
// a Suspense fallback would hold the page back (React throttles the reveal
// that follows one by up to 300 ms).
import { use, type ComponentType } from 'react';
import { matchRoutes, type Location, type RouteObject } from 'react-router';

type Load = () => Promise<{ default: ComponentType }>;
type Preload = () => Promise<void>;

/** A route's element, drawn once its chunk is in; the route's `handle` loads it. */
export function lazyScreen(load: Load): Pick<RouteObject, 'element' | 'handle'> {
  let Loaded: ComponentType | null = null;
  let loading: Promise<void> | null = null;
  const preload: Preload = () =>
    (loading ??= load().then((module) => {
      Loaded = module.default;
    }));
  function LazyScreen() {
    // Only when drawn before `loadScreens` was awaited: suspends until loaded,
    // or throws the load's failure to the error boundary.
    if (!Loaded) use(preload());
    return Loaded ? <Loaded /> : null;
  }
  return { element: <LazyScreen />, handle: preload };
}

/** Loads the chunks of every screen `location` matches, side by side. */
export async function loadScreens(routes: RouteObject[], location: Location): Promise<void> {
  const preloads = (matchRoutes(routes, location) ?? []).map(({ route }) => route.handle as Preload | undefined);
  await Promise.all(preloads.flatMap((preload) => (preload ? [preload()] : [])));
}
