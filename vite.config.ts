import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The app is static files: `vite build` writes dist/app/ (dist/node/ is the CLI, scripts/build.mjs),
// which `vite preview`, bin/flameview or any static host serves. Relative base so the app works
// from any sub-path (and from file servers).
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist/app',
    target: 'es2022',
    sourcemap: true,
    // The lazy chunks (components/lazy.ts) are plain import()s: their CSS stays in the one
    // stylesheet and no preload helper resolves their dependencies from import.meta.url, which
    // the HTML report's blob: modules could not (its loader rewrites only the chunks' own names).
    // index.html still preloads the chunks the entry imports statically, so they download
    // beside it instead of after it.
    cssCodeSplit: false,
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
