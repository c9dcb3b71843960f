// Where the built app lives, and building it on first use.
//
// FLAMEVIEW_DIST points at another directory (tests use a tiny fixture app); otherwise it is
// <repo>/dist, built with `vite build` when its index.html is missing.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function distDir(): string {
  return process.env.FLAMEVIEW_DIST || join(REPO_ROOT, 'dist');
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
  log.write('flameview: the app is not built yet; running `vite build` (once)…\n');
  const viteBin = join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const [command, args] = existsSync(viteBin)
    ? [process.execPath, [viteBin, 'build']]
    : ['npx', ['vite', 'build']];
  const code = await new Promise<number>((resolve) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
