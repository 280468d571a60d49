// Every store a test makes, so that what it left running ends with the test:
// a notification stream lives in its cache entry and reconnects on its own
// timers, and with one module graph per worker (vite.config.ts) it would
// otherwise reach the next file's handlers.
import { createStore, type AppStore, type RootState } from '../app/store.ts';
import { api } from '../lib/api.ts';

const made = new Set<AppStore>();

/** A fresh store, released after the test (setup-tests.ts). */
export function testStore(preloadedState?: Partial<RootState>): AppStore {
  const store = createStore(preloadedState);
  made.add(store);
  return store;
}

/** Removes every cache entry of the test's stores, which closes their streams. */
export function releaseStores(): void {
  for (const store of made) store.dispatch(api.util.resetApiState());
  made.clear();
}
