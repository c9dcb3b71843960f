// `kill -9` of a real `bin/flameview serve` in the middle of an upload.

import { request } from 'node:http';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { buildApp } from './app';
import { ProfileStore } from './store';
import { fixtureDist, foldedRecording, killAll, runCli, tempDir, waitForLine } from './test-support';

const dirs: string[] = [];
afterEach(async () => {
  await killAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

it('kill -9 during an upload leaves nothing served or listed, and nothing behind after the next start', async () => {
  const store = tempDir('flameview-store-');
  const dist = fixtureDist();
  dirs.push(store, dist);
  const server = runCli(['serve', '--store', store, '--port', '0'], { env: { ...process.env, FLAMEVIEW_DIST: dist } });
  const base = (await waitForLine(server, /^http:\/\/127\.0\.0\.1:\d+\/$/)).replace(/\/$/, '');

  // One complete upload first: it must survive the crash.
  const kept = foldedRecording(1);
  const done = await fetch(`${base}/api/profiles`, { method: 'POST', body: kept, headers: { 'x-filename': 'kept' } });
  expect(done.status).toBe(201);
  const keptId = ((await done.json()) as { id: string }).id;

  // A slow chunked upload: a few chunks, then the server is killed mid-body.
  const req = request(`${base}/api/profiles`, { method: 'POST', headers: { 'transfer-encoding': 'chunked', 'x-filename': 'partial' } });
  const outcome = new Promise<string>((resolve) => {
    req.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    req.on('response', (res) => resolve(`response ${res.statusCode}`));
  });
  const incoming = join(store, '.incoming');
  let written = 0;
  const partial = foldedRecording(2, 2000);
  const step = 4096;
  const writer = setInterval(() => {
    if (written < partial.length) {
      req.write(partial.slice(written, written + step));
      written += step;
    }
  }, 20);
  try {
    await until(() => readdirSync(incoming).length > 0 && written > 3 * step, 'the upload to reach the store');
    server.child.kill('SIGKILL');
    expect((await server.exit).signal).toBe('SIGKILL');
  } finally {
    clearInterval(writer);
  }
  expect(await outcome).toMatch(/^error (ECONNRESET|EPIPE|socket hang up)/);
  expect(written).toBeLessThan(partial.length); // really mid-body

  // Straight after the crash: the partial bytes are only in .incoming, never under an id.
  const visible = readdirSync(store).filter((f) => !f.startsWith('.'));
  expect(visible.sort()).toEqual([keptId, `${keptId}.json`]);

  // The next start (a real process again) cleans up and lists only the complete upload.
  const restarted = runCli(['serve', '--store', store, '--port', '0'], { env: { ...process.env, FLAMEVIEW_DIST: dist } });
  const base2 = (await waitForLine(restarted, /^http:\/\/127\.0\.0\.1:\d+\/$/)).replace(/\/$/, '');
  expect(readdirSync(incoming)).toEqual([]);
  const list = (await (await fetch(`${base2}/api/profiles`)).json()) as { id: string; name: string }[];
  expect(list.map((r) => [r.id, r.name])).toEqual([[keptId, 'kept']]);
  expect(await (await fetch(`${base2}/api/profiles/${keptId}`)).text()).toBe(kept);
  restarted.child.kill('SIGTERM');
  expect((await restarted.exit).code).toBe(0); // Ctrl+C/SIGTERM close cleanly

  // And an in-process app on the same DIR agrees.
  const app = await buildApp({ distDir: dist, store: await ProfileStore.open(store) });
  try {
    const res = await app.inject({ method: 'GET', url: '/api/profiles' });
    expect(res.json().map((r: { id: string }) => r.id)).toEqual([keptId]);
  } finally {
    await app.close();
  }
});
