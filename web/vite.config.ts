import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig, type Plugin } from 'vite';

import { precompress } from './vite-precompress.ts';

// The Rust `wmeter serve` listens here in development; see README.md.
const API_ORIGIN = 'http://127.0.0.1:8080';

// react-router's package exports only its development build, whose warnings
// then ship in production (remix-run/react-router#12532 and #14102). The
// build takes the production one beside it; the dev server and the unit
// tests keep the development one and its warnings.
function productionRouter(): Plugin {
  const production = new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url);
  return {
    name: 'react-router-production',
    apply: 'build',
    config: () => ({ resolve: { alias: [{ find: /^react-router$/, replacement: fileURLToPath(production) }] } }),
  };
}

export default defineConfig({
  plugins: [
    react(),
    productionRouter(),
    // The bundle map, a build artifact kept out of dist/ (which is served) and
    // out of git: which module weighs what in each chunk, gzip included.
    visualizer({ filename: 'dist-report/bundle.html', template: 'treemap', gzipSize: true }),
    precompress(),
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
    rolldownOptions: {
      output: {
        // A chunk shared by several screens is named after all of them; its
        // file, after its group.
        chunkFileNames: (chunk) => `assets/${chunk.name.split('~')[0] ?? chunk.name}-[hash].js`,
        // Fewer files to fetch (docs/web.md, The initial load): over HTTP/1.1
        // a screen's first load waits on the count of its chunks as much as
        // on their size, and by default every MUI component shared between
        // screens was a file of its own.
        codeSplitting: {
          groups: [
            // The libraries the entry loads, in one file.
            { name: 'entry-libs', tags: ['$initial'], test: /node_modules/, priority: 2 },
            // The MUI the lazy screens use, and the icons they show, in a few
            // files, grouped by the screens that use them, the small groups
            // merged.
            {
              name: 'mui',
              test: /node_modules[\\/](@mui[\\/](material|system|utils)|@popperjs|react-transition-group)[\\/]|src[\\/]components[\\/]icons[\\/]/,
              priority: 1,
              entriesAware: true,
              entriesAwareMergeThreshold: 40_000,
            },
          ],
        },
      },
    },
  },
});
