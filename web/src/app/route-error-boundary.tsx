// A screen that throws while rendering, or whose chunk fails to load, shows
// the error screen instead of a blank page. Going to another location leaves
// it, as a router's error element does.
import { Component, type ReactNode } from 'react';
import type { Location } from 'react-router';

import { ErrorPage } from './error-page.tsx';

interface Props {
  location: Location;
  children: ReactNode;
}

interface State {
  /** What was thrown, boxed: anything can be thrown, undefined included. */
  failure: { error: unknown } | null;
  /** The location it was thrown at. */
  location: Location;
}

export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { failure: null, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failure: { error } };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location ? null : { failure: null, location: props.location };
  }

  override componentDidCatch(error: unknown) {
    console.error('routing failed', error);
  }

  override render() {
    const { failure } = this.state;
    if (!failure) return this.props.children;
    return <ErrorPage detail={failure.error instanceof Error ? failure.error.message : null} />;
  }
}
