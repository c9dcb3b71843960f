// `kill -9` of a real `bin/flameview serve` in the middle of a 200 MB upload, on both store
// backends: nothing appears under a final name or key, the next start serves what was complete,
// and while the upload streamed the server's memory stayed far below the bytes it was sent.

import { request } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKEND_NAMES, storeBackends } from './test-backend-hooks';
import { fixtureDist, foldedRecording, killAll, runCli, type Spawned, waitForLine } from './test-support';

const backends = storeBackends();

const dirs: string[] = [];
afterEach(async () => {
  await killAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Resident memory of a process, in bytes (Linux). */
function rss(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

const MB = 1024 * 1024;
const TOTAL = 200 * MB;
const KILL_AT = 150 * MB;

describe.each(BACKEND_NAMES)('%s store', (kind) => {
  async function serve(location: string, extra: string[], env: Record<string, string>, dist: string): Promise<{ server: Spawned; base: string }> {
    const server = runCli(['serve', '--store', location, ...extra, '--port', '0', '--list'], { env: { ...process.env, ...env, FLAMEVIEW_DIST: dist } });
    const base = (await waitForLine(server, /^http:\/\/127\.0\.0\.1:\d+\/$/)).replace(/\/$/, '');
    return { server, base };
  }

  it('kill -9 during a 200 MB upload leaves nothing under a final key; memory stays bounded while it streams', async () => {
    const ts = await backends[kind].create();
    const dist = fixtureDist();
    dirs.push(dist);
    const { server, base } = await serve(ts.location, ts.cliArgs, ts.env, dist);

    // One complete upload first: it must survive the crash.
    const kept = foldedRecording(1);
    const done = await fetch(`${base}/api/profiles`, { method: 'POST', body: kept, headers: { 'x-filename': 'kept' } });
    expect(done.status).toBe(201);
    const keptId = ((await done.json()) as { id: string }).id;

    // 200 MB of folded stacks, written as fast as the server takes them; killed at 150 MB.
    const block = Buffer.from(foldedRecording(2, 20_000));
    const req = request(`${base}/api/profiles`, { method: 'POST', headers: { 'transfer-encoding': 'chunked', 'x-filename': 'partial' } });
    const outcome = new Promise<string>((resolve) => {
      req.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`));
      req.on('response', (res) => resolve(`response ${res.statusCode}`));
    });
    const pid = server.child.pid!;
    const before = rss(pid);
    let peak = before;
    let written = 0;
    while (written < KILL_AT) {
      const chunk = block.subarray(0, Math.min(block.length, TOTAL - written));
      written += chunk.length;
      if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      peak = Math.max(peak, rss(pid));
    }
    server.child.kill('SIGKILL');
    expect((await server.exit).signal).toBe('SIGKILL');
    expect(await outcome).toMatch(/^error (ECONNRESET|EPIPE|socket hang up)/);
    expect(written).toBeLessThan(TOTAL); // really mid-body
    // Streamed, not buffered: 150 MB went through a server whose memory grew by far less (the
    // S3 store holds up to three 8 MiB parts; measured growth is reported in the README).
    expect(peak - before, `RSS grew from ${before} to ${peak}`).toBeLessThan(100 * MB);

    // Straight after the crash: nothing but the complete upload under a final name or key.
    expect(await ts.committed()).toEqual([keptId]);

    // The next start (a real process again) lists and serves only the complete upload.
    const again = await serve(ts.location, ts.cliArgs, ts.env, dist);
    if (kind === 'disk') expect(await ts.incoming()).toEqual([]);
    const list = (await (await fetch(`${again.base}/api/profiles`)).json()) as { id: string; name: string }[];
    expect(list.map((r) => [r.id, r.name])).toEqual([[keptId, 'kept']]);
    expect(await (await fetch(`${again.base}/api/profiles/${keptId}`)).text()).toBe(kept);
    again.server.child.kill('SIGTERM');
    expect((await again.server.exit).code).toBe(0); // Ctrl+C/SIGTERM close cleanly
  });
});
