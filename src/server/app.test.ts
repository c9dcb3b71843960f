// The team server's suite, run on both store backends: a directory, and a bucket of a real
// S3-compatible server (s3rver from npm, started by test-backends.ts on 127.0.0.1; or real S3 /
// MinIO with FLAMEVIEW_TEST_S3_BUCKET). Requests go through app.inject() or real loopback HTTP.

import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp, withStoreMeta, type AppOptions } from './app';
import { collapseLines } from '../core/export/folded';
import { toProcessed } from '../core/export/processed';
import { FORMAT_VERSION, PROCESSED_MAGIC } from '../core/import/processed';
import { loadProfileFromText } from '../core/import/load';
import { CONTENT_SECURITY_POLICY } from './security';
import type { RecordingStore } from './store';
import { BACKEND_NAMES, storeBackends } from './test-backend-hooks';
import type { TestStore } from './test-backends';
import { FIXTURES, INDEX_HTML, fixtureDist, foldedRecording, tempDir } from './test-support';

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const folded = readFileSync(join(FIXTURES, 'rust-toyc.folded'));
const perfText = readFileSync(join(FIXTURES, 'sqlite.perf-script.txt'));

const backends = storeBackends();

const apps: FastifyInstance[] = [];
const stores: RecordingStore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  await Promise.all(stores.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function upload(app: FastifyInstance, body: Uint8Array | string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/profiles', payload: Buffer.from(body), headers: { 'content-type': 'application/octet-stream', ...headers } });
}

function expectSecurityHeaders(headers: Record<string, unknown>, what: string) {
  expect(headers['content-security-policy'], what).toBe(CONTENT_SECURITY_POLICY);
  expect(headers['x-content-type-options'], what).toBe('nosniff');
}

const until = async (check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.each(BACKEND_NAMES)('flameview serve, %s store', (kind) => {
  type Setup = Omit<AppOptions, 'distDir' | 'store'> & { at?: TestStore };
  async function setup(options: Setup = {}) {
    const { at, ...appOptions } = options;
    const ts = at ?? (await backends[kind].create());
    const dist = fixtureDist();
    dirs.push(dist);
    const store = await ts.open();
    stores.push(store);
    const app = await buildApp({ ...appOptions, distDir: dist, store });
    apps.push(app);
    return { app, ts, dist, store };
  }
  const listing = { team: { list: true } };

  it('store mode marks /, /index.html and /p/<id>; without a store the page is the file as built', async () => {
    const { app } = await setup();
    for (const url of ['/', '/index.html']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toBe(withStoreMeta(INDEX_HTML));
      expect(res.body, url).toMatch(/^<!doctype html><meta name="flameview-store" content="\/api\/profiles"><title>/);
      expectSecurityHeaders(res.headers, url);
    }
    const dist = fixtureDist();
    dirs.push(dist);
    const plain = await buildApp({ distDir: dist });
    apps.push(plain);
    const res = await plain.inject({ method: 'GET', url: '/' });
    expect(res.body).toBe(INDEX_HTML);
    expect((await plain.inject({ method: 'GET', url: '/api/profiles' })).statusCode).toBe(404);
    expect(withStoreMeta('<html><head><title>t</title></head></html>')).toBe('<html><head><meta name="flameview-store" content="/api/profiles"><title>t</title></head></html>');
  });
  it('keeps the hashed assets for good, the rest an hour, and revalidates the page', async () => {
    const dist = fixtureDist();
    dirs.push(dist);
    writeFileSync(join(dist, 'flameview-embed.js'), 'export {};\n');
    const app = await buildApp({ distDir: dist });
    apps.push(app);
    const cache = async (url: string) => (await app.inject({ method: 'GET', url })).headers['cache-control'];
    expect(await cache('/assets/app.js')).toBe('public, max-age=31536000, immutable');
    expect(await cache('/flameview-embed.js')).toBe('public, max-age=3600');
    expect(await cache('/')).toBe('no-cache');
    expect(await cache('/index.html')).toBe('no-cache');
  });

  it('the mark says whether uploads need the token and whether the server lists', async () => {
    const { app } = await setup({ team: { uploadToken: 'x'.repeat(20), list: true } });
    const { id } = (await upload(app, foldedRecording(3), { authorization: `Bearer ${'x'.repeat(20)}` })).json();
    for (const url of ['/', `/p/${id}`]) {
      expect((await app.inject({ method: 'GET', url })).body, url).toBe(withStoreMeta(INDEX_HTML, { uploadToken: true, list: true }));
    }
    expect(withStoreMeta('<head>', { uploadToken: true, list: true })).toBe('<head><meta name="flameview-store" content="/api/profiles" data-upload-token data-list>');
  });

  it('round-trips the bytes, content-addressed, with the name in the listing', async () => {
    const { app } = await setup(listing);
    const res = await upload(app, folded, { 'x-filename': 'rust%20toyc.folded' });
    expect(res.statusCode).toBe(201);
    const id = sha256(folded);
    expect(res.json()).toEqual({ id, url: `/p/${id}`, deleteToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });

    const get = await app.inject({ method: 'GET', url: `/api/profiles/${id}` });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('application/octet-stream');
    expect(get.headers['content-disposition']).toMatch(/^attachment; filename="rust toyc.folded"/);
    expect(Buffer.compare(get.rawPayload, folded)).toBe(0);

    const list = await app.inject({ method: 'GET', url: '/api/profiles' });
    expect(list.json()).toEqual([{ id, name: 'rust toyc.folded', size: folded.length, date: expect.any(String) }]);
    expect(Date.now() - Date.parse(list.json()[0].date)).toBeLessThan(60_000);

    const page = await app.inject({ method: 'GET', url: `/p/${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(withStoreMeta(INDEX_HTML, { uploadToken: false, list: true }));
    expect(page.body).toMatch(/^<!doctype html><meta name="flameview-store" content="\/api\/profiles" data-list><title>/);
    expect((await app.inject({ method: 'GET', url: `/p/${'0'.repeat(64)}` })).statusCode).toBe(404);
    // The app's relative asset paths, as seen from /p/<id>.
    const asset = await app.inject({ method: 'GET', url: '/p/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('export {};\n');
  });

  it('gives the same id and 200 for the same bytes, and keeps gzip bytes as uploaded', async () => {
    const { app, ts } = await setup(listing);
    const first = await upload(app, perfText, { 'x-filename': 'first' });
    const again = await upload(app, perfText, { 'x-filename': 'second' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    // Only the upload that stored it gets the delete token.
    expect(again.json()).toEqual({ id: first.json().id, url: first.json().url });

    const gz = gzipSync(perfText);
    const zipped = await upload(app, gz);
    expect(zipped.statusCode).toBe(201);
    expect(zipped.json().id).toBe(sha256(gz));
    const back = await app.inject({ method: 'GET', url: `/api/profiles/${sha256(gz)}` });
    expect(Buffer.compare(back.rawPayload, gz)).toBe(0);

    const list = (await app.inject({ method: 'GET', url: '/api/profiles' })).json();
    expect(list.map((r: { id: string }) => r.id)).toEqual([sha256(gz), sha256(perfText)]); // newest first
    expect(list[1].name).toBe('first'); // the first upload names it
    expect((await ts.committed()).sort()).toEqual([sha256(gz), sha256(perfText)].sort());
    expect(await ts.incoming()).toEqual([]);
  });

  it('accepts any Content-Type, or none, and decides by content', async () => {
    const { app } = await setup();
    const body = foldedRecording(1);
    for (const type of ['application/json', 'text/plain', 'image/svg+xml', 'multipart/form-data; boundary=x']) {
      const res = await upload(app, body, { 'content-type': type });
      expect(res.statusCode, type).toBeLessThan(300);
    }
    const none = await app.inject({ method: 'POST', url: '/api/profiles', payload: Buffer.from(foldedRecording(2)) });
    expect(none.statusCode).toBe(201);
  });

  it('refuses content that is not a recording with 415, whatever the Content-Type says', async () => {
    const { app, ts } = await setup(listing);
    // A picture, not a flame graph (flame graph SVGs are recordings, accepted below).
    const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>\n');
    const cases: [string, Uint8Array | string, string][] = [
      ['svg', svg, 'image/svg+xml'],
      ['json', '{"a": 1}\n', 'application/json'],
      ['html', '<script>alert(1)</script>\n', 'text/html'],
      ['binary', Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 0]), 'text/plain'],
      ['empty', '', 'text/plain'],
      ['perf.data', Buffer.concat([Buffer.from('PERFILE2'), Buffer.alloc(100)]), 'application/octet-stream'],
      ['gzip of svg', gzipSync(svg), 'application/gzip'],
      ['corrupt gzip', Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9]), 'application/gzip'],
    ];
    for (const [what, body, type] of cases) {
      const res = await upload(app, body, { 'content-type': type });
      expect(res.statusCode, what).toBe(415);
      expect(res.json().error, what).toMatch(/^not a recording flameview reads: /);
      expectSecurityHeaders(res.headers, what);
    }
    expect(await ts.committed()).toEqual([]);
    expect(await ts.incoming()).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/api/profiles' })).json()).toEqual([]);
  });

  it('stores and serves a processed recording (.flameview) like any recording; one of a newer version is refused', async () => {
    const { app, ts } = await setup(listing);
    const profile = await loadProfileFromText(perfText);
    const processed = gzipSync(toProcessed(profile));
    const res = await upload(app, processed, { 'x-filename': 'sqlite.perf-script.txt.flameview' });
    expect(res.statusCode).toBe(201);
    const id = sha256(processed);
    expect(res.json().id).toBe(id);
    const get = await app.inject({ method: 'GET', url: `/api/profiles/${id}` });
    expect(get.headers['content-disposition']).toMatch(/^attachment; filename="sqlite.perf-script.txt.flameview"/);
    expect(Buffer.compare(get.rawPayload, processed)).toBe(0);
    // What the link serves opens as the recording it was made from.
    const back = await loadProfileFromText(get.rawPayload);
    expect(collapseLines(back)).toEqual(collapseLines(profile));

    const newer = toProcessed(profile);
    new DataView(newer.buffer, newer.byteOffset).setUint32(PROCESSED_MAGIC.length, FORMAT_VERSION + 1, true);
    const refused = await upload(app, gzipSync(newer));
    expect(refused.statusCode).toBe(415);
    expect(refused.json().error).toContain(`format version ${FORMAT_VERSION + 1}, newer than this flameview reads`);
    expect(await ts.committed()).toEqual([id]);
  });

  it('refuses uploads over --max-upload with 413: by Content-Length, and while streaming', async () => {
    const { app, ts } = await setup({ maxUpload: 1000 });
    const big = foldedRecording(3, 100);
    expect(big.length).toBeGreaterThan(1000);
    const byLength = await upload(app, big);
    expect(byLength.statusCode).toBe(413);
    expectSecurityHeaders(byLength.headers, '413');

    // Chunked, over real HTTP: no Content-Length, so the limit trips as the bytes arrive.
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const encoder = new TextEncoder();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) return controller.close();
        sent++;
        controller.enqueue(encoder.encode(foldedRecording(sent, 5)));
      },
    });
    const res = await fetch(`${url}/api/profiles`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'the recording is over the upload limit of 1000 bytes' });
    expect(await ts.committed()).toEqual([]);
    expect(await ts.incoming()).toEqual([]);

    const small = await fetch(`${url}/api/profiles`, { method: 'POST', body: foldedRecording(4, 5) });
    expect(small.status).toBe(201);
  });

  it('never serves anything outside DIR, whatever the id looks like', async () => {
    const { app, ts } = await setup();
    const dir = kind === 'disk' ? ts.location : tempDir('flameview-not-the-store-');
    if (kind === 's3') dirs.push(dir);
    const parent = tempDir('flameview-outside-');
    dirs.push(parent);
    // A file outside the store, named like a valid id, next to the store and at /.
    const secretId = 'a'.repeat(64);
    writeFileSync(join(parent, secretId), 'SECRET;outside 1\n');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', secretId), 'SECRET;inside-sub 1\n');
    const stored = (await upload(app, foldedRecording(5))).json().id as string;
    const rel = `..%2f${parent.split('/').pop()}%2f${secretId}`;
    const attempts = [
      `/api/profiles/../../../../etc/passwd`,
      `/api/profiles/..%2f..%2f..%2fetc%2fpasswd`,
      `/api/profiles/%2e%2e%2f%2e%2e%2fetc%2fpasswd`,
      `/api/profiles/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd`,
      `/api/profiles/..%252f..%252fetc%252fpasswd`,
      `/api/profiles/${rel}`,
      `/api/profiles/sub%2f${secretId}`,
      `/api/profiles/%2fetc%2fpasswd`,
      `/api/profiles/${encodeURIComponent(join(parent, secretId))}`,
      `/api/profiles/${stored.toUpperCase()}`,
      `/api/profiles/${stored.slice(0, 63)}`,
      `/api/profiles/${stored}0`,
      `/api/profiles/${stored}%00`,
      `/api/profiles/${stored}.json`,
      `/api/profiles/.incoming`,
      `/p/..%2f..%2fetc%2fpasswd`,
      `/p/${rel}`,
      `/..%2f..%2fetc%2fpasswd`,
      `/%2e%2e/%2e%2e/etc/passwd`,
      `/assets/..%2f..%2f..%2fetc%2fpasswd`,
      `/api/local/..%2f..%2fetc%2fpasswd`,
    ];
    for (const url of attempts) {
      const res = await app.inject({ method: 'GET', url });
      expect([400, 403, 404], url).toContain(res.statusCode);
      expect(res.body, url).not.toMatch(/SECRET|root:/);
      expectSecurityHeaders(res.headers, url);
    }
    expect((await app.inject({ method: 'GET', url: `/api/profiles/${stored}` })).statusCode).toBe(200);
  });

  it('keeps everything across a restart on the same store, and cleans what a crash left', async () => {
    const first = await setup(listing);
    const bodies = [foldedRecording(6), gzipSync(foldedRecording(7)), perfText];
    const ids: string[] = [];
    for (const [i, b] of bodies.entries()) ids.push((await upload(first.app, b, { 'x-filename': `r${i}` })).json().id);
    await first.app.close();
    const dir = first.ts.location;
    if (kind === 'disk') {
      // What a crash mid-upload, or between the two renames, leaves behind:
      writeFileSync(join(dir, '.incoming', '123-deadbeef'), 'partial upload');
      writeFileSync(join(dir, `${'b'.repeat(64)}.json`), '{"name":"orphan"}');
    }

    const second = await setup({ ...listing, at: first.ts });
    const list = (await second.app.inject({ method: 'GET', url: '/api/profiles' })).json();
    expect(list.map((r: { id: string; name: string }) => [r.id, r.name])).toEqual([
      [ids[2], 'r2'],
      [ids[1], 'r1'],
      [ids[0], 'r0'],
    ]);
    for (const [i, id] of ids.entries()) {
      const res = await second.app.inject({ method: 'GET', url: `/api/profiles/${id}` });
      expect(Buffer.compare(res.rawPayload, Buffer.from(bodies[i]))).toBe(0);
    }
    expect(await first.ts.incoming()).toEqual([]);
    if (kind === 'disk') expect(readdirSync(dir)).not.toContain(`${'b'.repeat(64)}.json`);
  });

  it('stores 40 concurrent uploads over loopback HTTP, all retrievable and byte-identical', async () => {
    const { app, ts } = await setup(listing);
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const bodies = Array.from({ length: 40 }, (_, i) => {
      const text = foldedRecording(100 + i, 200 + i * 40);
      return i % 5 === 0 ? gzipSync(text) : Buffer.from(text);
    });
    const results = await Promise.all(
      bodies.map(async (body, i) => {
        const res = await fetch(`${url}/api/profiles`, { method: 'POST', body, headers: { 'x-filename': `upload-${i}` } });
        return { status: res.status, json: (await res.json()) as { id: string } };
      }),
    );
    for (const [i, r] of results.entries()) {
      expect(r.status).toBe(201);
      expect(r.json.id).toBe(sha256(bodies[i]));
    }
    const back = await Promise.all(results.map(async (r) => new Uint8Array(await (await fetch(`${url}/api/profiles/${r.json.id}`)).arrayBuffer())));
    for (const [i, b] of back.entries()) expect(Buffer.compare(b, bodies[i]), `upload ${i}`).toBe(0);
    const list = (await (await fetch(`${url}/api/profiles`)).json()) as { id: string }[];
    expect(new Set(list.map((r) => r.id))).toEqual(new Set(bodies.map((b) => sha256(b))));
    expect(await ts.incoming()).toEqual([]);
  });

  it('stores a recording of several S3 parts, streamed both ways', async () => {
    const { app, ts } = await setup();
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    // 12 MB: three parts of the S3 store's multipart upload.
    const block = Buffer.from(foldedRecording(8, 4000));
    const body = Buffer.concat(Array.from({ length: Math.ceil((12 * 1024 * 1024) / block.length) }, () => block));
    const res = await fetch(`${url}/api/profiles`, { method: 'POST', body, headers: { 'x-filename': 'big.folded' } });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(id).toBe(sha256(body));
    expect(await ts.committed()).toEqual([id]);
    expect(await ts.incoming()).toEqual([]);
    const back = Buffer.from(await (await fetch(`${url}/api/profiles/${id}`)).arrayBuffer());
    expect(Buffer.compare(back, body)).toBe(0);
    const middle = await fetch(`${url}/api/profiles/${id}`, { headers: { range: 'bytes=6000000-6000099' } });
    expect(middle.status).toBe(206);
    expect(Buffer.compare(Buffer.from(await middle.arrayBuffer()), body.subarray(6_000_000, 6_000_100))).toBe(0);
  });

  it('gives identical concurrent uploads one id, one 201 and one stored copy', async () => {
    const { app, ts } = await setup();
    const body = foldedRecording(9, 3000);
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => upload(app, body)))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(await ts.committed()).toEqual([sha256(body)]);
  });

  it('drops an upload whose client goes away mid-body, quietly', async () => {
    const { app, ts } = await setup();
    let received = 0;
    app.addHook('preHandler', async (request) => {
      if (request.method === 'POST') request.raw.on('data', (d: Buffer) => (received += d.length));
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const stderr = vi.spyOn(process.stderr, 'write');
    try {
      const req = request(`${url}/api/profiles`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } });
      req.on('error', () => undefined);
      // Past the sniffed head, so the store is writing when the client goes.
      const text = foldedRecording(10, 8000);
      req.write(text);
      await until(() => received >= text.length, 'the body to reach the server');
      if (kind === 'disk') expect(await ts.incoming()).toHaveLength(1);
      req.destroy();
      await until(async () => (await ts.incoming()).length === 0, 'the temporary upload to go');
      await new Promise((r) => setTimeout(r, 200));
      expect(await ts.incoming()).toEqual([]);
      expect(await ts.committed()).toEqual([]);
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
  });

  it('answers If-None-Match with 304 and HEAD without a body', async () => {
    const { app } = await setup();
    const { id } = (await upload(app, foldedRecording(11))).json();
    const first = await app.inject({ method: 'GET', url: `/api/profiles/${id}` });
    expect(first.headers.etag).toBe(`"${id}"`);
    const again = await app.inject({ method: 'GET', url: `/api/profiles/${id}`, headers: { 'if-none-match': `"${id}"` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const head = await app.inject({ method: 'HEAD', url: `/api/profiles/${id}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(foldedRecording(11).length));
  });

  it('answers malformed HTTP with the same security headers', async () => {
    const { app } = await setup();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GARBAGE / NOT-HTTP\r\n\r\n'));
      let text = '';
      socket.setEncoding('utf8').on('data', (d: string) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain(`content-security-policy: ${CONTENT_SECURITY_POLICY}\r\n`);
    expect(raw).toContain('x-content-type-options: nosniff\r\n');
  });

  it('puts the CSP and nosniff on every response', async () => {
    const { app } = await setup({ maxUpload: 100 });
    const id = sha256('x');
    const requests: [string, string, string?][] = [
      ['GET', '/'],
      ['GET', '/index.html'],
      ['GET', '/assets/app.js'],
      ['GET', '/missing.js'],
      ['GET', '/api/profiles'],
      ['GET', `/api/profiles/${id}`],
      ['GET', '/api/profiles/bad'],
      ['HEAD', '/'],
      ['GET', '/%zz'],
      ['GET', `/p/${id}`],
      ['POST', '/api/profiles', 'x'.repeat(500)],
      ['POST', '/api/profiles', 'not a recording'],
      ['DELETE', `/api/profiles/${id}`],
      ['GET', `/api/profiles/${id}?x`],
      ['POST', '/api/profiles', 'main;a 1\n'],
    ];
    for (const [method, url, payload] of requests) {
      const res = await app.inject({ method: method as 'GET', url, payload });
      expectSecurityHeaders(res.headers, `${method} ${url} → ${res.statusCode}`);
    }
    const ok = await app.inject({ method: 'GET', url: '/' });
    expect(ok.headers['content-type']).toMatch(/^text\/html/);
  });

  it('serves byte ranges of a recording', async () => {
    const { app } = await setup();
    const body = Buffer.from(foldedRecording(12, 400));
    const { id } = (await upload(app, body)).json();
    const get = (range: string, extra: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: `/api/profiles/${id}`, headers: { range, ...extra } });
    const size = body.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(range);
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(Buffer.compare(res.rawPayload, body.subarray(start, end + 1)), range).toBe(0);
    }
    const outside = await get(`bytes=${size}-`);
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${size}`);
    // Several ranges, a malformed one, or an If-Range that does not match: the whole recording.
    for (const [range, extra] of [['bytes=0-1,5-6', {}], ['bytes=a-b', {}], ['bytes=0-9', { 'if-range': '"other"' }]] as const) {
      const res = await get(range, extra);
      expect(res.statusCode, range).toBe(200);
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(Buffer.compare(res.rawPayload, body), range).toBe(0);
    }
  });

  it('deletes a recording only with the delete token its upload answered', async () => {
    const { app, ts } = await setup(listing);
    const body = foldedRecording(13);
    const created = await upload(app, body);
    const { id, deleteToken } = created.json();
    const other = (await upload(app, foldedRecording(14))).json();
    expect(other.deleteToken).not.toBe(deleteToken);
    const del = (token?: string, target = id) =>
      app.inject({ method: 'DELETE', url: `/api/profiles/${target}`, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

    const none = await del();
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer /);
    expect((await del(other.deleteToken)).statusCode).toBe(403); // another recording's token
    expect((await del(deleteToken.slice(0, -1) + (deleteToken.endsWith('A') ? 'B' : 'A'))).statusCode).toBe(403);
    expect((await del('x'.repeat(43), 'not-an-id')).statusCode).toBe(400);
    expect(await ts.committed()).toContain(id);

    const ok = await del(deleteToken);
    expect(ok.statusCode).toBe(204);
    expect(ok.body).toBe('');
    expect((await app.inject({ method: 'GET', url: `/api/profiles/${id}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/p/${id}` })).statusCode).toBe(404);
    expect((await del(deleteToken)).statusCode).toBe(404);
    expect(await ts.committed()).toEqual([other.id]);
    expect((await app.inject({ method: 'GET', url: '/api/profiles' })).json().map((r: { id: string }) => r.id)).toEqual([other.id]);

    // Stored again after the delete: a new 201, and the token works again (it names the id).
    const again = await upload(app, body);
    expect(again.statusCode).toBe(201);
    expect(again.json().deleteToken).toBe(deleteToken);
  });

  it('with an upload token: uploads and the list need it, reading a link does not', async () => {
    const token = 'team-token-0123456789abcdef';
    const { app } = await setup({ team: { uploadToken: token, list: true } });
    const body = foldedRecording(15);
    const none = await upload(app, body);
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="flameview"');
    expect(none.json().error).toMatch(/upload token/);
    const wrong = await upload(app, body, { authorization: `Bearer ${token}x` });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/invalid_token/);
    expect((await upload(app, body, { authorization: `Basic ${token}` })).statusCode).toBe(401);
    const ok = await upload(app, body, { authorization: `Bearer ${token}` });
    expect(ok.statusCode).toBe(201);
    const { id } = ok.json();

    expect((await app.inject({ method: 'GET', url: `/api/profiles/${id}` })).body).toBe(body);
    expect((await app.inject({ method: 'GET', url: `/p/${id}` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/profiles' })).statusCode).toBe(401);
    const list = await app.inject({ method: 'GET', url: '/api/profiles', headers: { authorization: `Bearer ${token}` } });
    expect(list.json().map((r: { id: string }) => r.id)).toEqual([id]);
    // The delete token, not the upload token, deletes.
    expect((await app.inject({ method: 'DELETE', url: `/api/profiles/${id}`, headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(403);
  });

  it('lists recordings only with --list', async () => {
    const { app } = await setup();
    await upload(app, foldedRecording(16));
    const res = await app.inject({ method: 'GET', url: '/api/profiles' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/--list/);
    expect((await app.inject({ method: 'GET', url: '/' })).body).toBe(withStoreMeta(INDEX_HTML));
  });

  it('answers 429 with Retry-After past the per-client write rate', async () => {
    const { app } = await setup({ team: { writesPerMinute: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await upload(app, foldedRecording(20 + i))).statusCode);
    expect(statuses).toEqual([201, 201, 201]);
    const limited = await upload(app, foldedRecording(30));
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatch(/^too many uploads or deletes from this address: at most 3 a minute/);
    expectSecurityHeaders(limited.headers, '429');
    // Deletes have an allowance of their own (each failed attempt counts); reading has none.
    const deletes: number[] = [];
    for (let i = 0; i < 4; i++) deletes.push((await app.inject({ method: 'DELETE', url: `/api/profiles/${sha256('x')}` })).statusCode);
    expect(deletes).toEqual([401, 401, 401, 429]);
    expect((await app.inject({ method: 'GET', url: `/api/profiles/${sha256(foldedRecording(20))}` })).statusCode).toBe(200);
    // Another client address has its own allowance.
    expect((await app.inject({ method: 'POST', url: '/api/profiles', payload: foldedRecording(31), remoteAddress: '127.0.0.2' })).statusCode).toBe(201);
  });

  it('evicts the oldest recordings past --max-store, never the one just stored', async () => {
    const bodies = [foldedRecording(40, 100), foldedRecording(41, 100), foldedRecording(42, 100)];
    const size = Math.max(...bodies.map((b) => b.length));
    const { app, ts } = await setup({ ...listing, team: { list: true, retention: { maxStoreBytes: 2 * size + 10 } } });
    const ids: string[] = [];
    for (const body of bodies) {
      ids.push((await upload(app, body)).json().id);
      // S3 dates recordings to the second in listings: keep the order unambiguous.
      if (kind === 's3') await new Promise((r) => setTimeout(r, 1100));
    }
    await until(async () => (await ts.committed()).length === 2, 'the eviction');
    expect((await ts.committed()).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await app.inject({ method: 'GET', url: `/api/profiles/${ids[0]}` })).statusCode).toBe(404);
  });

  it('evicts recordings older than --expire-days', async () => {
    const { app, ts, store } = await setup();
    const { id } = (await upload(app, foldedRecording(43))).json();
    const { Pruner } = await import('./retention');
    const log: string[] = [];
    expect(await new Pruner(store, { expireDays: 2 }, (m) => log.push(m), () => Date.now() + 1.5 * 86_400_000).run()).toEqual([]);
    expect(await new Pruner(store, { expireDays: 2 }, (m) => log.push(m), () => Date.now() + 2.5 * 86_400_000).run()).toEqual([id]);
    expect(await ts.committed()).toEqual([]);
    expect(log).toEqual(['evicted 1 recording (--expire-days 2)']);
  });
});

describe('local file paths (flameview FILE)', () => {
  it('carry the name in URL-safe characters only', async () => {
    const { localFilePath } = await import('./app');
    expect(localFilePath('ab', 'perf.data.txt')).toBe('/api/local/ab/perf.data.txt');
    expect(localFilePath('ab', 'a b&c#d%e;f<img>.folded')).toBe('/api/local/ab/a_b_c_d_e_f_img_.folded');
    expect(localFilePath('ab', '..')).toBe('/api/local/ab/_');
    expect(localFilePath('ab', '')).toBe('/api/local/ab');
  });
});
