import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * index.html lists the app's chunks (src/main.tsx's, and the chunks it imports statically, less
 * those the page's first script loads) in a JSON element, `#flameview-app-chunks`: src/boot.ts
 * preloads them all when it imports the app, one round trip instead of a chain of two. Not as
 * links in the HTML: a modulepreload there compiled them while the recording parsed and put the
 * first picture back (bench/README.md, "The first picture before the app").
 */
function listAppChunks(): Plugin {
  return {
    name: 'flameview-app-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const entry = chunks.find((c) => c.isEntry);
        const app = chunks.find((c) => c.facadeModuleId?.endsWith('/src/main.tsx'));
        if (!entry || !app) throw new Error('flameview-app-chunks: no entry chunk or no src/main.tsx chunk in the bundle');
        const reached = (from: string, seen = new Set<string>()): Set<string> => {
          if (seen.has(from)) return seen;
          seen.add(from);
          for (const dep of chunks.find((c) => c.fileName === from)?.imports ?? []) reached(dep, seen);
          return seen;
        };
        const first = reached(entry.fileName);
        const files = [...reached(app.fileName)].filter((f) => !first.has(f)).map((f) => `./${f}`);
        return [{ tag: 'script', attrs: { type: 'application/json', id: 'flameview-app-chunks' }, children: JSON.stringify(files), injectTo: 'head' }];
      },
    },
  };
}

// The app is static files: `vite build` writes dist/app/ (dist/node/ is the CLI, scripts/build.mjs),
// which `vite preview`, bin/flameview or any static host serves. Relative base so the app works
// from any sub-path (and from file servers).
export default defineConfig({
  base: './',
  plugins: [react(), listAppChunks()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist/app',
    target: 'es2022',
    sourcemap: true,
    // The lazy chunks (components/lazy.ts) are plain import()s: their CSS stays in the one
    // stylesheet and no preload helper resolves their dependencies from import.meta.url, which
    // the HTML report's blob: modules could not (its loader rewrites only the chunks' own names).
    // The entry (src/boot.ts) imports the app with import(): it preloads the app's chunks itself,
    // from the list listAppChunks writes into index.html.
    cssCodeSplit: false,
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
