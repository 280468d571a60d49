// Browser end-to-end tests: a real `wmeter serve` fed by `wmeter simulate`,
// driven through Debian's Chromium with playwright-core. Run by `npm run e2e`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./e2e/support/global-setup.ts'],
    // One server and one browser: the files run one after another.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
