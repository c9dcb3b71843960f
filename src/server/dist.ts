// Where the built app lives, and building it on first use.
//
// FLAMEVIEW_DIST points at another directory (tests use a tiny fixture app); otherwise it is
// <package root>/dist/app: shipped in the npm package, and in a checkout built with `vite build`
// when its index.html is missing. REPO_ROOT is two levels up both from this source file and from
// the bundle in dist/node/ (scripts/build.mjs keeps every output file there).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function distDir(): string {
  return process.env.FLAMEVIEW_DIST || join(REPO_ROOT, 'dist', 'app');
}

/**
 * Returns the directory of the built app, running the vite build when it has never been built.
 * The build's output goes to `log` (stderr), so stdout keeps only what the command prints.
 * Throws an Error with a one-line message when the build is missing and cannot be made.
 */
export async function ensureBuilt(log: NodeJS.WritableStream): Promise<string> {
  const dir = distDir();
  if (existsSync(join(dir, 'index.html'))) return dir;
  if (process.env.FLAMEVIEW_DIST) throw new Error(`${dir}/index.html is missing (FLAMEVIEW_DIST)`);
  // Only a checkout has vite (a dev dependency); an installed package ships the built app.
  const viteBin = join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(viteBin)) throw new Error(`${dir}/index.html is missing: the package is incomplete; reinstall it`);
  log.write('flameview: the app is not built yet; running `vite build` (once)…\n');
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [viteBin, 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', () => resolve(-1));
    child.on('close', (c) => resolve(c ?? -1));
  });
  if (code !== 0 || !existsSync(join(dir, 'index.html'))) {
    throw new Error('the app build failed (see the output above); try `npm run build`');
  }
  return dir;
}
