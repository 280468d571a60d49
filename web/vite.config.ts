import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig } from 'vitest/config';

// The Rust `wmeter serve` listens here in development; see README.md.
const API_ORIGIN = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    // The bundle map, a build artifact kept out of dist/ (which is served) and
    // out of git: which module weighs what in each chunk, gzip included.
    visualizer({ filename: 'dist-report/bundle.html', template: 'treemap', gzipSize: true }),
  ],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: API_ORIGIN, changeOrigin: true },
      '/healthz': { target: API_ORIGIN, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup-tests.ts'],
    restoreMocks: true,
  },
});
