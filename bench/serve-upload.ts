// A big upload to a real `bin/flameview serve`: time, throughput and the server's resident memory.
//
//   npx tsx bench/serve-upload.ts                    # 1024 MB to an S3 store (s3rver), then disk
//   npx tsx bench/serve-upload.ts --mb 200 --store s3
//
// The S3 store talks to s3rver (started here on 127.0.0.1, as the tests do) unless
// FLAMEVIEW_TEST_S3_BUCKET names real S3 or MinIO. The body is folded stacks generated on the fly
// and written as fast as the server takes them; the server's VmRSS is sampled every 20 ms.
// The time includes the store's commit (for S3, the CopyObject of the whole object).

import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { diskBackend, s3Backend, type Backend } from '../src/server/test-backends';
import { fixtureDist, foldedRecording, killAll, runCli, waitForLine } from '../src/server/test-support';

const MB = 1024 * 1024;
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const total = Number(arg('--mb') ?? 1024) * MB;
const kinds = (arg('--store') ?? 's3,disk').split(',') as ('s3' | 'disk')[];
/** Another entry point for the CLI (e.g. a bundled build), run with node. */
const bin = arg('--bin');

function rss(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

async function run(backend: Backend): Promise<void> {
  const ts = await backend.create();
  const dist = fixtureDist();
  const server = runCli(['serve', '--store', ts.location, ...ts.cliArgs, '--port', '0', '--max-upload', '5g'], {
    env: { ...process.env, ...ts.env, FLAMEVIEW_DIST: dist },
  }, bin);
  try {
    const base = (await waitForLine(server, /^http:\/\/127\.0\.0\.1:\d+\/$/)).replace(/\/$/, '');
    const pid = server.child.pid!;
    const idle = rss(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
    const block = Buffer.from(foldedRecording(3, 30_000));
    const hash = createHash('sha256');
    const started = performance.now();
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/api/profiles`, { method: 'POST', headers: { 'transfer-encoding': 'chunked', 'x-filename': 'big.folded' } });
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      void (async () => {
        for (let sent = 0; sent < total; ) {
          const chunk = block.subarray(0, Math.min(block.length, total - sent));
          sent += chunk.length;
          hash.update(chunk);
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        }
        req.end();
      })();
    });
    const { status, body } = await answer;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rss(pid));
    const id = (JSON.parse(body) as { id?: string }).id;
    const ok = status === 201 && id === hash.digest('hex') && (await ts.committed()).includes(id);
    console.log(
      `${backend.name.padEnd(4)} ${(total / MB).toFixed(0)} MB: ${seconds.toFixed(1)} s, ${(total / MB / seconds).toFixed(0)} MB/s; ` +
        `server RSS idle ${(idle / MB).toFixed(0)} MB, peak ${(peak / MB).toFixed(0)} MB${ok ? '' : `; FAILED: ${status} ${body} ${server.stderr()}`}`,
    );
  } finally {
    await killAll();
    rmSync(dist, { recursive: true, force: true });
    await backend.cleanup();
  }
}

for (const kind of kinds) {
  const backend = kind === 's3' ? await s3Backend() : diskBackend();
  try {
    await run(backend);
  } finally {
    await backend.stop();
  }
}
