#!/usr/bin/env node
// The build: the web app with vite into dist/app/, the Node side (CLI and servers) with esbuild
// into dist/node/. `node scripts/build.mjs` builds both (what `npm pack` ships); `--node` only the
// Node side (a fraction of a second; the unit tests, the e2e server and `npm start` run it first).
// `npm pack` runs the whole build (prepack). There is deliberately no `prepare` script: npm would
// want to run it on `npm install -g` of the tarball, which holds no sources to build.
//
// Layout invariant: every file esbuild writes sits directly in dist/node/, two levels below the
// package root, as src/server/dist.ts sits below the repository root; so `new URL('../../',
// import.meta.url)` names the root from the sources and from the bundle alike.
//
// npm packages stay external (fastify & co. are the package's dependencies); everything under
// src/ is bundled, with code splitting so `flameview --help` loads only the dispatcher.

import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every Node entry point, output name → source. Adding one (a worker_threads worker, say) is one
 * line here; it is written to dist/node/<name>.mjs, in the same directory as every chunk, so the
 * bundled code that starts it finds it at `new URL('./<name>.mjs', import.meta.url)` (from the
 * sources, under tsx or vitest, that URL names src/…; pick the .ts file there).
 */
export const NODE_ENTRIES = {
  flameview: 'src/cli/bin.ts',
  // worker_threads worker of the parallel load (src/cli/parallel-load.ts starts it beside itself)
  'parse-worker': 'src/cli/parse-worker.ts',
};

export async function buildNode({ quiet = false } = {}) {
  const outdir = join(ROOT, 'dist', 'node');
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(NODE_ENTRIES).map(([out, src]) => ({ in: src, out })),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    logLevel: quiet ? 'warning' : 'info',
    metafile: true,
  });
  return Object.keys(result.metafile.outputs);
}

function buildApp() {
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const nodeOnly = process.argv.includes('--node');
  if (!nodeOnly) buildApp();
  await buildNode({ quiet: process.argv.includes('--quiet') });
}
