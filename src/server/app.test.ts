import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp, withStoreMeta } from './app';
import { CONTENT_SECURITY_POLICY } from './security';
import { ProfileStore } from './store';
import { FIXTURES, INDEX_HTML, fixtureDist, foldedRecording, tempDir } from './test-support';

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const folded = readFileSync(join(FIXTURES, 'rust-toyc.folded'));
const perfText = readFileSync(join(FIXTURES, 'sqlite.perf-script.txt'));

const apps: FastifyInstance[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function setup(options: { maxUpload?: number; dir?: string } = {}) {
  const dir = options.dir ?? tempDir('flameview-store-');
  const dist = fixtureDist();
  dirs.push(dir, dist);
  const store = await ProfileStore.open(dir);
  const app = await buildApp({ distDir: dist, store, maxUpload: options.maxUpload });
  apps.push(app);
  return { app, dir, dist, store };
}

function upload(app: FastifyInstance, body: Uint8Array | string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/profiles', payload: Buffer.from(body), headers: { 'content-type': 'application/octet-stream', ...headers } });
}

/** Files under DIR that a request could be served: committed recordings and sidecars. */
function committed(dir: string): string[] {
  return readdirSync(dir).filter((f) => !f.startsWith('.'));
}

function expectSecurityHeaders(headers: Record<string, unknown>, what: string) {
  expect(headers['content-security-policy'], what).toBe(CONTENT_SECURITY_POLICY);
  expect(headers['x-content-type-options'], what).toBe('nosniff');
}

describe('the page says whether the server stores recordings (no probe request)', () => {
  it('store mode marks /, /index.html and /p/<id>; without a store the page is the file as built', async () => {
    const { app } = await setup();
    for (const url of ['/', '/index.html']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toBe(withStoreMeta(INDEX_HTML));
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
});

describe('flameview serve: upload and download', () => {
  it('round-trips the bytes, content-addressed, with the name in the listing', async () => {
    const { app } = await setup();
    const res = await upload(app, folded, { 'x-filename': 'rust%20toyc.folded' });
    expect(res.statusCode).toBe(201);
    const id = sha256(folded);
    expect(res.json()).toEqual({ id, url: `/p/${id}` });

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
    expect(page.body).toBe(withStoreMeta(INDEX_HTML));
    expect(page.body).toMatch(/^<!doctype html><meta name="flameview-store" content="\/api\/profiles"><title>/);
    expect((await app.inject({ method: 'GET', url: `/p/${'0'.repeat(64)}` })).statusCode).toBe(404);
    // The app's relative asset paths, as seen from /p/<id>.
    const asset = await app.inject({ method: 'GET', url: '/p/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('export {};\n');
  });

  it('gives the same id and 200 for the same bytes, and keeps gzip bytes as uploaded', async () => {
    const { app, dir } = await setup();
    const first = await upload(app, perfText, { 'x-filename': 'first' });
    const again = await upload(app, perfText, { 'x-filename': 'second' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());

    const gz = gzipSync(perfText);
    const zipped = await upload(app, gz);
    expect(zipped.statusCode).toBe(201);
    expect(zipped.json().id).toBe(sha256(gz));
    const back = await app.inject({ method: 'GET', url: `/api/profiles/${sha256(gz)}` });
    expect(Buffer.compare(back.rawPayload, gz)).toBe(0);

    const list = (await app.inject({ method: 'GET', url: '/api/profiles' })).json();
    expect(list.map((r: { id: string }) => r.id)).toEqual([sha256(gz), sha256(perfText)]); // newest first
    expect(list[1].name).toBe('first'); // the first upload names it
    expect(committed(dir).sort()).toEqual([sha256(gz), `${sha256(gz)}.json`, sha256(perfText), `${sha256(perfText)}.json`].sort());
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
    const { app, dir } = await setup();
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
    expect(committed(dir)).toEqual([]);
    expect(readdirSync(join(dir, '.incoming'))).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/api/profiles' })).json()).toEqual([]);
  });

  it('refuses uploads over --max-upload with 413: by Content-Length, and while streaming', async () => {
    const { app, dir } = await setup({ maxUpload: 1000 });
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
    expect(committed(dir)).toEqual([]);
    expect(readdirSync(join(dir, '.incoming'))).toEqual([]);

    const small = await fetch(`${url}/api/profiles`, { method: 'POST', body: foldedRecording(4, 5) });
    expect(small.status).toBe(201);
  });

  it('never serves anything outside DIR, whatever the id looks like', async () => {
    const { app, dir } = await setup();
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

  it('keeps everything across a restart on the same DIR, and cleans what a crash left', async () => {
    const first = await setup();
    const bodies = [foldedRecording(6), gzipSync(foldedRecording(7)), perfText];
    const ids: string[] = [];
    for (const [i, b] of bodies.entries()) ids.push((await upload(first.app, b, { 'x-filename': `r${i}` })).json().id);
    await first.app.close();
    // What a crash mid-upload, or between the two renames, leaves behind:
    writeFileSync(join(first.dir, '.incoming', '123-deadbeef'), 'partial upload');
    writeFileSync(join(first.dir, `${'b'.repeat(64)}.json`), '{"name":"orphan"}');

    const second = await setup({ dir: first.dir });
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
    expect(readdirSync(join(first.dir, '.incoming'))).toEqual([]);
    expect(committed(first.dir)).not.toContain(`${'b'.repeat(64)}.json`);
  });

  it('stores 50 concurrent uploads over loopback HTTP, all retrievable and byte-identical', async () => {
    const { app, dir } = await setup();
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const bodies = Array.from({ length: 50 }, (_, i) => {
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
    expect(readdirSync(join(dir, '.incoming'))).toEqual([]);
  });

  it('gives identical concurrent uploads one id, one 201 and one stored copy', async () => {
    const { app, dir } = await setup();
    const body = foldedRecording(9, 3000);
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => upload(app, body)))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(committed(dir)).toHaveLength(2);
  });

  it('drops an upload whose client goes away mid-body, quietly', async () => {
    const { app, dir } = await setup();
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const stderr = vi.spyOn(process.stderr, 'write');
    try {
      const req = request(`${url}/api/profiles`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } });
      req.on('error', () => undefined);
      req.write(foldedRecording(10, 500));
      const incoming = join(dir, '.incoming');
      for (let i = 0; i < 400 && readdirSync(incoming).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(readdirSync(incoming)).toHaveLength(1);
      req.destroy();
      for (let i = 0; i < 400 && readdirSync(incoming).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(readdirSync(incoming)).toEqual([]);
      expect(committed(dir)).toEqual([]);
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
      ['POST', '/api/profiles', 'main;a 1\n'],
    ];
    for (const [method, url, payload] of requests) {
      const res = await app.inject({ method: method as 'GET', url, payload });
      expectSecurityHeaders(res.headers, `${method} ${url} → ${res.statusCode}`);
    }
    const ok = await app.inject({ method: 'GET', url: '/' });
    expect(ok.headers['content-type']).toMatch(/^text\/html/);
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
