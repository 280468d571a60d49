// Unit tests: Vitest in jsdom, on the app's own Vite configuration
// (vite.config.ts, which the build reads without Vitest installed).
import { defineConfig, mergeConfig } from 'vitest/config';

import viteConfig from './vite.config';

// Unit test files that need the app's modules as a page load finds them: the
// i18n test checks French is not loaded until chosen; three check what is
// visible or a computed style, which needs Emotion's rules in the document
// from the first render (src/testing/emotion-styles.ts).
const ISOLATED = [
  'src/lib/i18n.test.tsx',
  'src/features/alarm-rules/components/alarm-rules-page.test.tsx',
  'src/features/meters/components/meter-detail-page.test.tsx',
  'src/features/notifications/components/notification-bell.test.tsx',
];

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/testing/setup-tests.ts'],
      restoreMocks: true,
      // Every core: the default leaves one free, which on two cores is one worker.
      maxWorkers: '100%',
      // Room for the longest waits above on a loaded machine; locally the
      // slowest test takes under 4 s.
      testTimeout: 20_000,
      projects: [
        {
          extends: true,
          // One jsdom and one module graph per worker, not per file: a fresh
          // window and the app's modules imported again for each of 78 files
          // were two thirds of the unit tests' time. What a file leaves behind
          // is cleared after each test (setup-tests.ts); every render has its
          // own store.
          test: { name: 'shared', include: ['src/**/*.test.{ts,tsx}'], exclude: [...ISOLATED], isolate: false },
        },
        { extends: true, test: { name: 'isolated', include: [...ISOLATED] } },
      ],
    },
  }),
);
