// The team server under faults (issue 32): slow clients, oversized requests, many bad tokens, an
// upload and a delete of one id racing, a full disk, and the S3 server killed mid-download and
// mid-upload. Each case ends with a clean answer to the client and nothing half-written under a
// final name or key. Oversized bodies (413) and a client that leaves mid-body are in app.test.ts;
// kill -9 of the server itself in crash.test.ts. Loopback only; every loop is bounded.

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { existsSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp, type AppOptions, type SlowClientLimits } from './app';
import { DiskStore } from './disk-store';
import { S3Store, parseS3Url } from './s3-store';
import { CONTENT_SECURITY_POLICY } from './security';
import type { RecordingStore } from './store';
import { BACKEND_NAMES, storeBackends } from './test-backend-hooks';
import { startS3rver, type S3rver } from './test-backends';
import { fixtureDist, foldedRecording, openDescriptors, rawExchange, tempDir } from './test-support';

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const MB = 1024 * 1024;

/**
 * Seconds, not the production defaults' tens of seconds; only for the slow-client cases, since on
 * a loaded machine a 600 ms headers limit could cut an ordinary request of another test.
 */
const SHORT: SlowClientLimits = { headersMs: 600, upload: { graceMs: 500, minBytesPerSecond: 1_000_000 }, idleMs: 800 };

const backends = storeBackends();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(store: RecordingStore, options: Omit<AppOptions, 'distDir' | 'store'> = {}): Promise<{ app: FastifyInstance; url: string; port: number }> {
  const dist = fixtureDist();
  const app = await buildApp({ ...options, distDir: dist, store });
  cleanups.push(async () => {
    await app.close();
    await store.close();
    rmSync(dist, { recursive: true, force: true });
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url, port: (app.server.address() as { port: number }).port };
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function answerOf(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve) => {
    let body = '';
    res.setEncoding('utf8').on('data', (d: string) => (body += d));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
  });
}

describe('slow and oversized requests', () => {
  it('slowloris: headers sent a line every 100 ms are answered 408 once the headers limit passes', async () => {
    const { port } = await serve(await (await backends.disk.create()).open(), { slowClients: SHORT });
    const started = Date.now();
    const raw = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n', (n) => `x-drip-${n}: ${n}\r\n`, 100, 300);
    expect(raw).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(raw).toContain(`content-security-policy: ${CONTENT_SECURITY_POLICY}\r\n`);
    expect(raw).toContain('{"error":"the request headers took too long to arrive"}');
    // The limit (600 ms) plus one check interval (and a loaded machine's delays), not the 30 s the
    // drip would last nor Node's default 60 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a client that stops reading a download: the connection is closed once idle, and the file with it', async () => {
    const ts = await backends.disk.create();
    const store = await ts.open();
    const { app, url } = await serve(store, { slowClients: SHORT });
    // 16 MB: far more than the socket buffers hold, so the response stalls.
    const block = Buffer.from(foldedRecording(71, 4000));
    const body = Buffer.concat(Array.from({ length: Math.ceil((16 * MB) / block.length) }, () => block));
    const put = await store.put(Readable.from([body]), { name: 'big', maxBytes: 32 * MB });
    expect(put.kind).toBe('stored');
    const path = join(ts.location, sha256(body));
    // A raw socket that reads the first bytes and then stops reading (a paused socket leaves the
    // kernel's receive buffer at its first size, so the response really stalls).
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET /api/profiles/${sha256(body)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    socket.on('error', () => undefined);
    cleanups.push(() => void socket.destroy());
    await new Promise<void>((resolve) => socket.once('data', () => resolve(socket.pause() && undefined)));
    expect(openDescriptors(path)).toBe(1);
    // The server lets go of the connection and the file within the idle limit (800 ms here).
    await expect.poll(() => openDescriptors(path), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => new Promise((r) => app.server.getConnections((_e, n) => r(n))), { timeout: 5000 }).toBe(0);
  });

  it('an upload whose commit takes longer than the idle limit still gets its answer', async () => {
    const ts = await backends.disk.create();
    const store = await ts.open();
    // The store takes 2 s after the body is in (as an S3 copy of a big recording does), past the
    // 800 ms idle limit during which the client's connection stands still.
    const put = store.put.bind(store);
    vi.spyOn(store, 'put').mockImplementation(async (body, options) => {
      const result = await put(body, options);
      await new Promise((r) => setTimeout(r, 2000));
      return result;
    });
    const { url } = await serve(store, { slowClients: SHORT });
    const body = foldedRecording(72, 300);
    const res = await fetch(`${url}/api/profiles`, { method: 'POST', body });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { id: string }).id).toBe(sha256(body));
  });

  it('headers over 16 KB are answered 431, as JSON with the security headers', async () => {
    const { port } = await serve(await (await backends.disk.create()).open());
    const raw = await rawExchange(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, () => '', 1000, 0);
    expect(raw).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(raw).toContain('x-content-type-options: nosniff\r\n');
    expect(raw).toContain('{"error":"request header fields too large"}');
  });

  it('many bad upload tokens from one address are rate-limited, on uploads and on the list', async () => {
    const token = 't'.repeat(24);
    const { app } = await serve(await (await backends.disk.create()).open(), { team: { uploadToken: token, list: true, writesPerMinute: 5 } });
    const guess = (i: number) => ({ authorization: `Bearer wrong-guess-${i}-xxxxxxxx` });
    const lists: number[] = [];
    const uploads: number[] = [];
    for (let i = 0; i < 6; i++) {
      lists.push((await app.inject({ method: 'GET', url: '/api/profiles', headers: guess(i) })).statusCode);
      uploads.push((await app.inject({ method: 'POST', url: '/api/profiles', headers: guess(i), payload: foldedRecording(i) })).statusCode);
    }
    expect(lists).toEqual([401, 401, 401, 401, 401, 429]);
    expect(uploads).toEqual([401, 401, 401, 401, 401, 429]);
    // Another address, with the right token, is not held back.
    const other = await app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: `Bearer ${token}` }, remoteAddress: '127.0.0.9' });
    expect(other.statusCode).toBe(200);
  });
});

describe.each(BACKEND_NAMES)('%s store', (kind) => {
  it('a body trickled after its head is answered 408 and leaves nothing stored', async () => {
    const ts = await backends[kind].create();
    const { url } = await serve(await ts.open(), { slowClients: SHORT });
    const req = request(`${url}/api/profiles`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } });
    req.on('error', () => undefined);
    const answer = new Promise<Answer>((resolve) => req.on('response', (res) => resolve(answerOf(res))));
    // Past the sniffed head, so the store is writing; then 10 bytes every 50 ms, for 20 s at most.
    req.write(foldedRecording(70, 8000));
    let n = 0;
    const drip = setInterval(() => {
      if (n++ < 400) req.write(`main;d${n} 1\n`);
      else req.end();
    }, 50);
    try {
      const got = await answer;
      expect(got.status).toBe(408);
      expect(JSON.parse(got.body)).toEqual({ error: 'the upload arrived too slowly: under 1000000 bytes a second' });
      expect(got.headers.connection).toBe('close');
      expect(n).toBeLessThan(200); // cut within 10 s, long before the drip's 20 s
    } finally {
      clearInterval(drip);
      req.destroy();
    }
    await expect.poll(() => ts.incoming(), { timeout: 10_000 }).toEqual([]);
    expect(await ts.committed()).toEqual([]);
  });

  it('an upload and a delete of the same id racing: either order, never half a recording', async () => {
    const ts = await backends[kind].create();
    const { app } = await serve(await ts.open(), { team: { writesPerMinute: 0 } });
    const body = foldedRecording(80, 400);
    const id = sha256(body);
    const first = await app.inject({ method: 'POST', url: '/api/profiles', payload: body });
    expect(first.statusCode).toBe(201);
    const del = { method: 'DELETE' as const, url: `/api/profiles/${id}`, headers: { authorization: `Bearer ${first.json().deleteToken}` } };
    const seen = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const [up, gone] = await Promise.all([app.inject({ method: 'POST', url: '/api/profiles', payload: body }), app.inject(del)]);
      seen.add(`${up.statusCode}/${gone.statusCode}`);
      expect([200, 201]).toContain(up.statusCode);
      expect([204, 404]).toContain(gone.statusCode);
      const stored = (await ts.committed()).includes(id);
      const get = await app.inject({ method: 'GET', url: `/api/profiles/${id}` });
      if (stored) expect(get.body).toBe(body);
      else expect(get.statusCode).toBe(404);
      if (kind === 'disk') expect(existsSync(join(ts.location, `${id}.json`)), `round ${round}: the sidecar goes with the recording`).toBe(stored);
      expect(await ts.incoming()).toEqual([]);
      if (!stored) expect((await app.inject({ method: 'POST', url: '/api/profiles', payload: body })).statusCode).toBe(201);
    }
    expect(seen.size).toBeGreaterThan(0);
  });
});

describe('disk store: races and a full disk', () => {
  it('a refused upload leaves no temporary file, however early it is refused', async () => {
    // An empty body refused by the sniff ends before the temporary file's open(2) has: the removal
    // ran first, and the open then made the file (now and then on a loaded machine; every time
    // with the open held back as here).
    const dir = tempDir('flameview-refused-');
    const realOpen = fs.open as (...args: unknown[]) => void;
    // Each open of a temporary file, held back 50 ms; `opened` settles once its callback has run.
    let opened: Promise<void> = Promise.resolve();
    const slowOpen = vi.spyOn(fs, 'open').mockImplementation(((path: string, ...rest: unknown[]) => {
      const callback = rest.pop() as (...args: unknown[]) => void;
      if (!String(path).includes('.incoming')) return realOpen(path, ...rest, callback);
      opened = new Promise((resolve) => {
        setTimeout(() => realOpen(path, ...rest, (...result: unknown[]) => {
          callback(...result);
          resolve();
        }), 50);
      });
    }) as typeof fs.open);
    try {
      const store = await DiskStore.open(dir);
      for (let i = 0; i < 3; i++) {
        const r = await store.put(Readable.from([]), { name: 'empty', maxBytes: 1 << 20, accept: async () => 'not a recording' });
        expect(r.kind).toBe('rejected');
        // The open has run by now (it had to, for the stream to close), and made no file that stays.
        await opened;
        expect(readdirSync(join(dir, '.incoming')), `upload ${i}`).toEqual([]);
      }
      expect(slowOpen).toHaveBeenCalled();
      await store.close();
    } finally {
      slowOpen.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a delete that arrives while an upload of the same id is committing waits for it (IdLocks)', async () => {
    const ts = await backends.disk.create();
    const store = await ts.open();
    const { app } = await serve(store);
    const body = foldedRecording(81, 300);
    const id = sha256(body);
    const token = (await app.inject({ method: 'POST', url: '/api/profiles', payload: body })).json().deleteToken as string;
    expect((await app.inject({ method: 'DELETE', url: `/api/profiles/${id}`, headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(204);

    // Hold the upload between linking the recording and writing its sidecar until the delete is
    // in the store and has either finished (no lock: it would unlink under the upload) or had
    // time to.
    const hooks = store as unknown as { writeSidecar(info: unknown): Promise<void>; delete(id: string): Promise<boolean> };
    const writeSidecar = hooks.writeSidecar.bind(store);
    const deleteOf = hooks.delete.bind(store);
    let deleting: Promise<boolean> | null = null;
    let committing!: () => void;
    const committed = new Promise<void>((r) => (committing = r));
    vi.spyOn(hooks, 'delete').mockImplementation((x) => (deleting = deleteOf(x)));
    vi.spyOn(hooks, 'writeSidecar').mockImplementation(async (info) => {
      committing();
      await expect.poll(() => deleting !== null).toBe(true);
      await Promise.race([deleting, new Promise((r) => setTimeout(r, 300))]);
      return writeSidecar(info);
    });
    const up = app.inject({ method: 'POST', url: '/api/profiles', payload: body });
    await committed;
    const gone = await app.inject({ method: 'DELETE', url: `/api/profiles/${id}`, headers: { authorization: `Bearer ${token}` } });
    expect((await up).statusCode).toBe(201);
    expect(gone.statusCode).toBe(204);
    // The upload committed first, so the delete removed the recording and its sidecar, both.
    expect(await ts.committed()).toEqual([]);
    expect(readdirSync(ts.location).filter((f) => f.endsWith('.json'))).toEqual([]);
  });

  const mountable = (() => {
    const probe = tempDir('flameview-tmpfs-probe-');
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
      execFileSync('umount', [probe], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  })();

  /** A 2 MiB tmpfs (root only): a disk that really fills. */
  function smallDisk(): string {
    const dir = tempDir('flameview-tmpfs-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir]);
    cleanups.push(() => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    });
    return dir;
  }
  const free = (dir: string) => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };

  it.skipIf(!mountable)('a full disk (2 MiB tmpfs): 507, nothing stored, and the space comes back', async () => {
    const dir = smallDisk();
    const store = await DiskStore.open(join(dir, 'store'));
    const { url } = await serve(store);
    const empty = free(dir);
    const big = Buffer.from(foldedRecording(90, 120_000));
    expect(big.length).toBeGreaterThan(3 * MB);
    const res = await fetch(`${url}/api/profiles`, { method: 'POST', body: big });
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({ error: 'the server is out of disk space' });
    expect(readdirSync(join(dir, 'store')).filter((f) => !f.startsWith('.'))).toEqual([]);
    expect(readdirSync(join(dir, 'store', '.incoming'))).toEqual([]);
    expect(free(dir)).toBe(empty);
    const small = foldedRecording(91, 50);
    const ok = await fetch(`${url}/api/profiles`, { method: 'POST', body: small });
    expect(ok.status).toBe(201);
    expect(await (await fetch(`${url}/api/profiles/${sha256(small)}`)).text()).toBe(small);
  });

  it.skipIf(!mountable)('a disk with room for the recording but not its sidecar: 507, and the recording taken back out', async () => {
    const dir = smallDisk();
    const store = await DiskStore.open(join(dir, 'store'));
    const { url } = await serve(store);
    const body = Buffer.from(foldedRecording(92, 8000));
    // Fill the disk to leave exactly the recording's pages free.
    const page = statfsSync(dir).bsize;
    const needed = Math.ceil(body.length / page) * page;
    writeFileSync(join(dir, 'filler'), Buffer.alloc(free(dir) - needed));
    expect(free(dir)).toBe(needed);
    const res = await fetch(`${url}/api/profiles`, { method: 'POST', body });
    expect(res.status).toBe(507);
    expect(readdirSync(join(dir, 'store')).filter((f) => !f.startsWith('.'))).toEqual([]);
    expect(readdirSync(join(dir, 'store', '.incoming'))).toEqual([]);
    expect((await fetch(`${url}/api/profiles/${sha256(body)}`)).status).toBe(404);
  });
});

describe('the S3 server killed and restarted', () => {
  async function withS3rver(): Promise<{ s3: S3rver; store: RecordingStore; committed: () => Promise<string[]> }> {
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const location = `s3://${s3.bucket}/kill/`;
    const store = await S3Store.open(parseS3Url(location), s3.endpoint);
    const committed = async () => {
      const probe = await S3Store.open(parseS3Url(location), s3.endpoint);
      try {
        return (await probe.entries()).map((e) => e.id);
      } finally {
        await probe.close();
      }
    };
    return { s3, store, committed };
  }
  const restart = (s3: S3rver) => startS3rver({ dir: s3.dir, port: s3.port, restart: true });

  it('mid-download: the client sees a cut response, the server answers 503 while S3 is down and serves again after', { timeout: 120_000 }, async () => {
    const { s3, store } = await withS3rver();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    cleanups.push(() => stderr.mockRestore());
    const { url } = await serve(store);
    const block = Buffer.from(foldedRecording(93, 4000));
    const body = Buffer.concat(Array.from({ length: Math.ceil((32 * MB) / block.length) }, () => block));
    const id = sha256(body);
    expect((await fetch(`${url}/api/profiles`, { method: 'POST', body })).status).toBe(201);

    // Read the first bytes, stop reading, kill S3, then read on.
    const cut = await new Promise<{ received: number; complete: boolean }>((resolve) => {
      let received = 0;
      const req = request(`${url}/api/profiles/${id}`);
      req.on('error', () => resolve({ received, complete: false }));
      req.on('response', (res) => {
        res.once('data', (d: Buffer) => {
          received += d.length;
          res.pause();
          void s3.kill().then(() => {
            res.on('data', (more: Buffer) => (received += more.length));
            res.resume();
          });
        });
        res.on('error', () => resolve({ received, complete: res.complete }));
        res.on('close', () => resolve({ received, complete: res.complete }));
      });
      req.end();
    });
    expect(cut.complete).toBe(false);
    expect(cut.received).toBeLessThan(body.length);

    // While S3 is down: a clean 503 with Retry-After, for reads and for uploads.
    const down = await fetch(`${url}/api/profiles/${id}`);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.json()).toEqual({ error: 'the recording store is unavailable; try again shortly' });
    expect((await fetch(`${url}/api/profiles`, { method: 'POST', body: foldedRecording(94) })).status).toBe(503);
    const logged = stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(logged).toMatch(/is unavailable/);
    expect(logged).not.toMatch(/\n\s+at /); // one line, no stack

    const again = await restart(s3);
    cleanups.push(() => again.kill());
    await expect.poll(async () => (await fetch(`${url}/api/profiles/${id}`, { method: 'HEAD' })).status, { timeout: 30_000 }).toBe(200);
    const whole = Buffer.from(await (await fetch(`${url}/api/profiles/${id}`)).arrayBuffer());
    expect(whole.equals(body)).toBe(true);
  });

  it('mid-upload: the client gets 503, no recording appears, and the next upload is stored', { timeout: 120_000 }, async () => {
    const { s3, store, committed } = await withS3rver();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    cleanups.push(() => stderr.mockRestore());
    const { url } = await serve(store);
    const block = Buffer.from(foldedRecording(95, 4000));
    const req = request(`${url}/api/profiles`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } });
    const answer = new Promise<Answer | string>((resolve) => {
      req.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`));
      req.on('response', (res) => resolve(answerOf(res)));
    });
    let written = 0;
    let killed = false;
    let answered = false;
    void answer.then(() => (answered = true));
    // Past two 5 MiB parts, then S3 goes; keep sending (at most 64 MB) until the server answers.
    while (!answered && written < 64 * MB) {
      if (written >= 12 * MB && !killed) {
        killed = true;
        await s3.kill();
      }
      written += block.length;
      if (!req.write(block)) await Promise.race([new Promise((r) => req.once('drain', r)), answer]);
      // After its answer the server reads and drops the rest of the body (keep-alive), so writes
      // may never block: yield, or this loop would not see the answer until 64 MB are sent.
      else await new Promise((r) => setImmediate(r));
    }
    const got = await answer;
    req.destroy();
    expect(typeof got === 'string' ? got : got.status).toBe(503);
    expect(written).toBeLessThan(64 * MB);

    const again = await restart(s3);
    cleanups.push(() => again.kill());
    expect(await committed()).toEqual([]);
    const small = foldedRecording(96);
    await expect.poll(async () => (await fetch(`${url}/api/profiles`, { method: 'POST', body: small })).status, { timeout: 30_000 }).toBe(201);
    expect(await committed()).toEqual([sha256(small)]);
  });
});
