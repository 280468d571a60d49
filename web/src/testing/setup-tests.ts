import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { initI18n } from '../lib/i18n.ts';
import { server } from './msw-server.ts';

initI18n();

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});

// Vitest globals are off, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
});

afterAll(() => {
  server.close();
});
