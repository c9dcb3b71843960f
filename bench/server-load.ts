// Load on a real `bin/flameview serve` (disk store, loopback): many concurrent downloads and
// uploads for a bounded time, reporting throughput, latency percentiles, errors and the server's
// resident memory (VmRSS sampled every 100 ms).
//
//   npm run bench:server                         # 60 s, 64 connections, a quarter of them uploads
//   npm run bench:server -- --seconds 10 --connections 16 --upload-share 0.5
//
// Every request is checked: an upload must answer 201 with the sha256 of what was sent, a
// download 200 with the recording's exact length (and, for one in ten, its exact bytes). Anything
// else, a network error included, counts as an error. The run stops at its deadline or after
// --max-requests, whichever comes first. src/server/load.test.ts runs a few seconds of it.

import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { fixtureDist, foldedRecording, killAll, runCli, tempDir, waitForLine } from '../src/server/test-support';

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** Fraction of requests that are uploads (the rest are downloads). */
  uploadShare: number;
  maxRequests: number;
  /** Recordings stored before the clock starts, for the downloads. */
  seeded: number;
}

export interface Latency {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface LoadReport {
  seconds: number;
  connections: number;
  requests: number;
  errors: number;
  /** The first few errors, as text. */
  errorSamples: string[];
  requestsPerSecond: number;
  /** Body bytes both ways, per second. */
  mbPerSecond: number;
  download: Latency;
  upload: Latency;
  rss: { idleMb: number; peakMb: number; endMb: number };
}

export const DEFAULT_LOAD: LoadOptions = { seconds: 60, connections: 64, uploadShare: 0.25, maxRequests: 2_000_000, seeded: 40 };

const MB = 1024 * 1024;

function rss(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0; // the process is gone; the run reports its errors
  }
}

function latency(samples: number[]): Latency {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);
  return { count: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.length ? sorted[sorted.length - 1] : 0) };
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

interface Answer {
  status: number;
  body: Buffer;
}

function send(agent: Agent, url: string, method: string, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: body ? { 'content-length': body.length, 'x-filename': 'load.folded' } : {} });
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.end(body);
  });
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Starts a server on a fresh disk store, loads it, stops it and removes the store. */
export async function runLoad(options: LoadOptions = DEFAULT_LOAD): Promise<LoadReport> {
  const store = tempDir('flameview-load-store-');
  const dist = fixtureDist();
  const server = runCli(['serve', '--store', store, '--port', '0', '--rate-limit', '0'], { env: { ...process.env, FLAMEVIEW_DIST: dist } });
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  try {
    const base = (await waitForLine(server, /^http:\/\/127\.0\.0\.1:\d+\/$/)).replace(/\/$/, '');
    const pid = server.child.pid!;

    // Recordings to download: 20 KB to 1.3 MB of folded stacks.
    const seeded: { id: string; body: Buffer }[] = [];
    for (let i = 0; i < options.seeded; i++) {
      const body = Buffer.from(foldedRecording(1000 + i, 200 + ((i * 997) % 40) * 400));
      const answer = await send(agent, `${base}/api/profiles`, 'POST', body);
      if (answer.status !== 201) throw new Error(`seeding: upload answered ${answer.status} ${answer.body.toString()}`);
      seeded.push({ id: sha256(body), body });
    }
    // Uploads: distinct bytes every time (a unique first line before one of a few bodies), 8 to 80 KB.
    const templates = Array.from({ length: 16 }, (_, i) => Buffer.from(foldedRecording(5000 + i, 40 + i * 25)));

    const idle = rss(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 100);
    const downloads: number[] = [];
    const uploads: number[] = [];
    const errorSamples: string[] = [];
    let errors = 0;
    let bytes = 0;
    let issued = 0;
    let serial = 0;
    const started = performance.now();
    const deadline = started + options.seconds * 1000;
    const error = (what: string) => {
      errors++;
      if (errorSamples.length < 5) errorSamples.push(what);
    };

    const worker = async (w: number) => {
      // A fixed, per-worker sequence, so two runs ask the same things.
      let state = 0x9e3779b9 ^ (w * 2654435761);
      const next = () => ((state = (Math.imul(state ^ (state >>> 15), 2246822519) + 1) >>> 0) / 2 ** 32);
      while (performance.now() < deadline && issued < options.maxRequests) {
        issued++;
        const t0 = performance.now();
        try {
          if (next() < options.uploadShare) {
            const body = Buffer.concat([Buffer.from(`load;upload_${serial++};w${w} 1\n`), templates[Math.floor(next() * templates.length)]]);
            const answer = await send(agent, `${base}/api/profiles`, 'POST', body);
            uploads.push(performance.now() - t0);
            bytes += body.length;
            const id = answer.status === 201 ? (JSON.parse(answer.body.toString()) as { id: string }).id : '';
            if (id !== sha256(body)) error(`upload: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
          } else {
            const pick = seeded[Math.floor(next() * seeded.length)];
            const answer = await send(agent, `${base}/api/profiles/${pick.id}`, 'GET');
            downloads.push(performance.now() - t0);
            bytes += answer.body.length;
            const whole = answer.body.length === pick.body.length && (issued % 10 !== 0 || answer.body.equals(pick.body));
            if (answer.status !== 200 || !whole) error(`download: ${answer.status}, ${answer.body.length} of ${pick.body.length} bytes`);
          }
        } catch (e) {
          error(`network: ${(e as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: options.connections }, (_, w) => worker(w)));
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const end = rss(pid);
    return {
      seconds: round(elapsed, 2),
      connections: options.connections,
      requests: downloads.length + uploads.length,
      errors,
      errorSamples,
      requestsPerSecond: round((downloads.length + uploads.length) / elapsed),
      mbPerSecond: round(bytes / MB / elapsed),
      download: latency(downloads),
      upload: latency(uploads),
      rss: { idleMb: round(idle / MB), peakMb: round(Math.max(peak, end) / MB), endMb: round(end / MB) },
    };
  } finally {
    agent.destroy();
    await killAll();
    rmSync(store, { recursive: true, force: true });
    rmSync(dist, { recursive: true, force: true });
  }
}

function parseArgs(args: string[]): LoadOptions {
  const options = { ...DEFAULT_LOAD };
  const numbers: Record<string, keyof LoadOptions> = {
    '--seconds': 'seconds',
    '--connections': 'connections',
    '--upload-share': 'uploadShare',
    '--max-requests': 'maxRequests',
    '--seeded': 'seeded',
  };
  for (let i = 0; i < args.length; i++) {
    const key = numbers[args[i]];
    const value = Number(args[++i]);
    if (!key || !Number.isFinite(value) || value < 0) throw new Error(`usage: server-load.ts [--seconds N] [--connections N] [--upload-share F] [--max-requests N] [--seeded N]`);
    options[key] = value;
  }
  // Bounded whatever is asked: at most ten minutes and 1024 connections.
  options.seconds = Math.min(options.seconds, 600);
  options.connections = Math.max(1, Math.min(Math.floor(options.connections), 1024));
  options.seeded = Math.max(1, Math.min(Math.floor(options.seeded), 500));
  return options;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const options = parseArgs(process.argv.slice(2));
  const report = await runLoad(options);
  const l = (x: Latency) => `${x.count} requests, p50 ${x.p50} ms, p99 ${x.p99} ms, max ${x.max} ms`;
  process.stdout.write(
    `flameview serve (disk store), ${report.connections} connections for ${report.seconds} s:\n` +
      `  ${report.requests} requests (${report.requestsPerSecond}/s, ${report.mbPerSecond} MB/s of bodies), ${report.errors} errors\n` +
      `  downloads: ${l(report.download)}\n  uploads:   ${l(report.upload)}\n` +
      `  server RSS: ${report.rss.idleMb} MB idle, ${report.rss.peakMb} MB peak, ${report.rss.endMb} MB at the end\n` +
      (report.errorSamples.length ? `  first errors:\n${report.errorSamples.map((e) => `    ${e}\n`).join('')}` : '') +
      `${JSON.stringify(report)}\n`,
  );
  process.exitCode = report.errors === 0 ? 0 : 1;
}
