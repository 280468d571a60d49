// The state of each user's notification stream, for the live indicator. The
// stream runs in the RTK Query cache lifecycle, outside React; this small
// store hands its state to components through `useSyncExternalStore`.
import { useSyncExternalStore } from 'react';

import type { StreamState } from '../../../lib/sse.ts';

interface Entry {
  owner: symbol;
  state: StreamState;
}

const streams = new Map<string, Entry>();
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function streamState(key: string | null): StreamState {
  return (key === null ? undefined : streams.get(key)?.state) ?? 'offline';
}

/**
 * A reporter for a new stream of `key`. The newest stream of a key owns its
 * state: an older one that closes late neither overwrites nor removes it.
 */
export function streamReporter(key: string) {
  const owner = Symbol(key);
  streams.set(key, { owner, state: 'offline' });
  changed();
  return {
    report: (state: StreamState) => {
      if (streams.get(key)?.owner !== owner) return;
      streams.set(key, { owner, state });
      changed();
    },
    release: () => {
      if (streams.get(key)?.owner !== owner) return;
      streams.delete(key);
      changed();
    },
  };
}

/** The state of `key`'s stream; 'offline' when it has none. */
export function useStreamState(key: string | null): StreamState {
  const get = () => streamState(key);
  return useSyncExternalStore(subscribe, get, get);
}
