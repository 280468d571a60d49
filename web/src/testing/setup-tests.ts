import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { initI18n } from '../lib/i18n.ts';
import { keepStylesOutOfDocument } from './emotion-styles.ts';
import { server } from './msw-server.ts';
import { preloadLazyModules } from './preload-lazy.ts';
import { releaseStores } from './stores.ts';

initI18n();

// A `findBy` waits for what a render shows. On a loaded 2-core CI machine a
// lazy screen with a data grid takes over Testing Library's 1 s default to
// appear (three such waits failed there); what is awaited stays the same.
configure({ asyncUtilTimeout: 5_000 });

keepStylesOutOfDocument();
preloadLazyModules();

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});

// Vitest globals are off, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  releaseStores();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});

afterAll(() => {
  server.close();
});
