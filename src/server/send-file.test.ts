// A local file served by `flameview FILE` (/api/local/…) through ./send-file.ts's reused
// buffers, over real loopback HTTP: bodies larger than the buffers, a client that stops reading
// (so buffers wait for the socket), ranges, HEAD, and a client that leaves half-way.

import { randomBytes } from 'node:crypto';
import { rmSync, truncateSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SLOW_CLIENT_LIMITS, buildApp, type LocalFile } from './app';
import { fixtureDist, openDescriptors, tempDir } from './test-support';

const TOKEN = 'a'.repeat(32);
const apps: FastifyInstance[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A server for one local file of `size` random bytes. */
async function serveFile(size: number): Promise<{ url: string; body: Buffer; path: string }> {
  const dir = tempDir();
  const distDir = fixtureDist();
  dirs.push(dir, distDir);
  const path = join(dir, 'big.perf-script.txt');
  const body = randomBytes(size);
  writeFileSync(path, body);
  const app = await buildApp({ distDir, localFiles: new Map([[TOKEN, { path, name: 'big.perf-script.txt' }]]) });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/local/${TOKEN}`, body, path };
}

/** GET (or HEAD) with Node's client; `pauseMs` stops reading after the first chunk for that long. */
function get(url: string, headers: Record<string, string> = {}, options: { method?: string; pauseMs?: number } = {}): Promise<{ res: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      let paused = false;
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (options.pauseMs && !paused) {
          paused = true;
          res.pause();
          setTimeout(() => res.resume(), options.pauseMs);
        }
      });
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a local file over HTTP', () => {
  it('sends a body of many buffers whole and unchanged, also to a client that stops reading', async () => {
    const { url, body, path } = await serveFile(9 * 1024 * 1024 + 12345);
    for (const pauseMs of [0, 300]) {
      const { res, body: got } = await get(url, {}, { pauseMs });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(body.length));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(got.length).toBe(body.length);
      expect(Buffer.compare(got, body), `pause ${pauseMs} ms`).toBe(0);
    }
    await expect.poll(() => openDescriptors(path)).toBe(0);
  });

  it('sends ranges across buffer boundaries, and HEAD gives the length without a body', async () => {
    const { url, body } = await serveFile(5 * 1024 * 1024);
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=1048570-3145740', 1048570, 3145740],
      [`bytes=${body.length - 7}-`, body.length - 7, body.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const { res, body: got } = await get(url, { range }, { pauseMs: 50 });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${body.length}`);
      expect(Buffer.compare(got, body.subarray(start, end + 1)), range).toBe(0);
    }
    const head = await get(url, {}, { method: 'HEAD' });
    expect(head.res.statusCode).toBe(200);
    expect(head.res.headers['content-length']).toBe(String(body.length));
    expect(head.res.headers['accept-ranges']).toBe('bytes');
    expect(head.body.length).toBe(0);
    const headRange = await get(url, { range: 'bytes=10-19' }, { method: 'HEAD' });
    expect(headRange.res.statusCode).toBe(206);
    expect(headRange.res.headers['content-length']).toBe('10');
  });

  it('a client that leaves half-way: the server stops reading and closes the file', async () => {
    const { url, body, path } = await serveFile(8 * 1024 * 1024);
    await new Promise<void>((resolve, reject) => {
      const req = request(url, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
      req.end();
    });
    await expect.poll(() => openDescriptors(path), { timeout: 5000 }).toBe(0);
    const { body: got } = await get(url, { range: 'bytes=100-199' });
    expect(Buffer.compare(got, body.subarray(100, 200))).toBe(0);
    // The server closes the range's file after the response ends, asynchronously: wait for it.
    await expect.poll(() => openDescriptors(path), { timeout: 5000 }).toBe(0);
  });

  it('a file that shrank while being sent ends the response short, with an error to the client', { timeout: 10_000 }, async () => {
    const { url, path } = await serveFile(8 * 1024 * 1024);
    const outcome = await new Promise<string>((resolve) => {
      const req = request(url, (res) => {
        let got = 0;
        res.once('data', () => truncateSync(path, 1024 * 1024));
        res.on('data', (c: Buffer) => (got += c.length));
        res.on('end', () => resolve(`ended after ${got} bytes`));
        res.on('error', () => resolve('aborted'));
        res.on('aborted', () => resolve('aborted'));
      });
      req.on('error', () => resolve('aborted'));
      req.end();
    });
    expect(outcome).toBe('aborted');
    await expect.poll(() => openDescriptors(path)).toBe(0);
  });

  it('a file still being made: its requests wait for it, past the idle timeout, then get it whole', async () => {
    const dir = tempDir();
    const distDir = fixtureDist();
    dirs.push(dir, distDir);
    let made!: (file: LocalFile) => void;
    const pending = new Promise<LocalFile>((resolve) => (made = resolve));
    const app = await buildApp({ distDir, localFiles: new Map([[TOKEN, pending]]), slowClients: { ...DEFAULT_SLOW_CLIENT_LIMITS, idleMs: 300 } });
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/api/local/${TOKEN}`;
    let answered = 0;
    const whole = get(url).then((r) => (answered++, r));
    const head = get(url, {}, { method: 'HEAD' }).then((r) => (answered++, r));
    // Meanwhile the rest of the server answers (the page loads).
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    // An idle connection opened after the waiting requests: once the server has closed it, their
    // own idle time has passed too.
    const idle = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => idle.once('close', () => resolve()));
    expect(answered).toBe(0);
    const path = join(dir, 'made.flameview');
    const body = randomBytes(2 * 1024 * 1024 + 5);
    writeFileSync(path, body);
    made({ path, name: 'made.flameview' });
    const [got, h] = await Promise.all([whole, head]);
    expect(got.res.statusCode).toBe(200);
    expect(Buffer.compare(got.body, body)).toBe(0);
    expect(h.res.headers['content-length']).toBe(String(body.length));
  });
});
