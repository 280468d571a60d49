// Every screen is a chunk of its own (React.lazy), the shell included. A
// nested screen renders only once its parent has, so the chunks a location
// matches are asked for together, ahead of rendering: the shell's and the
// page's load side by side rather than one after the other.
import { lazy, type ComponentType } from 'react';
import { matchRoutes, type Location, type RouteObject } from 'react-router';

type Load = () => Promise<{ default: ComponentType }>;

/** A route's lazily loaded element, with its loader kept as the route's `handle`. */
export function lazyScreen(load: Load): Pick<RouteObject, 'element' | 'handle'> {
  const Screen = lazy(load);
  return { element: <Screen />, handle: load };
}

/** Starts loading the chunks of every screen `location` matches; React.lazy then finds them loading. */
export function preloadScreens(routes: RouteObject[], location: Location) {
  for (const { route } of matchRoutes(routes, location) ?? []) {
    const load = route.handle as Load | undefined;
    // A failure shows when the screen renders (route-error-boundary.tsx).
    load?.().catch(() => undefined);
  }
}
