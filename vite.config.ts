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
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
