// The app loads its screens, the data grid, the charts and the date field
// lazily. In a test, the first import of one can outlast findBy's timeout, and
// with one module graph per worker (vite.config.ts) an import a finished file
// left in flight lands in the next. So every module a lazy() or a route loads
// is imported before a file's first test: once per worker in the shared
// project, then cached; once per file in the isolated one.
import { beforeAll } from 'vitest';

const lazyModules = import.meta.glob([
  '../app/**/*.tsx',
  '../components/**/*.tsx',
  '../features/*/components/*.tsx',
  '!../**/*.test.tsx',
]);

/** A worker's first import of them all, on a loaded 2-core machine. */
const PRELOAD_TIMEOUT_MS = 60_000;

export function preloadLazyModules(): void {
  beforeAll(async () => {
    await Promise.all(Object.values(lazyModules).map((load) => load()));
  }, PRELOAD_TIMEOUT_MS);
}
