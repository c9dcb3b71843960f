// The source route of `flameview FILE` and its guard, on real directories and symbolic links:
// what is served (only files the recording names, under the roots, to a request with the run's
// secret) and every refusal with its status and reason.

import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { FileGuard } from './source-guard';
import { sourceBase } from './source-routes';
import { fixtureDist, tempDir } from './test-support';
import { diskBackend } from './test-backends';

let dir: string;
let root: string;
let outside: string;
const apps: FastifyInstance[] = [];
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'proj');
  outside = join(dir, 'secret');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'src', 'loop.c'), 'int main(void) { return 0; }\n');
  writeFileSync(join(root, 'src', 'evil.c'), '<img src=x onerror=alert(1)>\n');
  writeFileSync(join(outside, 'key.txt'), 'do not serve\n');
  writeFileSync(join(root, 'big.c'), 'x'.repeat(64));
  symlinkSync(join(outside, 'key.txt'), join(root, 'src', 'link.c'));
  symlinkSync(outside, join(root, 'out'));
  symlinkSync(join(root, 'src', 'loop.c'), join(root, 'inner.c'));
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function setup(names: string[], maxBytes?: number) {
  const guard = await FileGuard.create({ roots: [root], names: new Set(names), secret: 'a'.repeat(32), maxBytes });
  const app = await buildApp({ distDir: fixtureDist(), localFiles: new Map(), sources: guard });
  apps.push(app);
  const get = (path: string, secret = sourceBase(guard), headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `${secret}?path=${encodeURIComponent(path)}`, headers });
  return { guard, app, get };
}

describe('GET /api/source/<secret>?path=', () => {
  it('serves a named file under a root, by absolute or relative path, as text without CORS', async () => {
    const abs = join(root, 'src', 'loop.c');
    const { get } = await setup([abs, 'src/loop.c', 'inner.c']);
    for (const path of [abs, 'src/loop.c', 'inner.c']) {
      const r = await get(path);
      expect(r.statusCode, path).toBe(200);
      expect(r.body).toBe('int main(void) { return 0; }\n');
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('finds a base name (perf without --full-source-path) by its path suffix under the roots, shortest first', async () => {
    mkdirSync(join(root, 'deep', 'src'), { recursive: true });
    writeFileSync(join(root, 'deep', 'src', 'loop.c'), 'deeper\n');
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'hidden.c'), 'hidden\n');
    const { get } = await setup(['loop.c', 'deep/src/loop.c', 'hidden.c', 'link.c']);
    expect((await get('loop.c')).body).toBe('int main(void) { return 0; }\n');
    expect((await get('deep/src/loop.c')).body).toBe('deeper\n');
    expect((await get('hidden.c')).statusCode).toBe(404);
    const link = await get('link.c');
    expect(link.statusCode).toBe(403);
    expect(JSON.parse(link.body).error).toMatch(/symbolic link/);
  });

  it('refuses a missing or wrong secret, another site, and a path the recording does not name (403)', async () => {
    const abs = join(root, 'src', 'loop.c');
    const { get } = await setup([abs]);
    const cases: [Promise<{ statusCode: number; body: string }>, RegExp][] = [
      [get(abs, '/api/source/'), /not found|secret/],
      [get(abs, `/api/source/${'b'.repeat(32)}`), /secret/],
      [get(abs, `/api/source/${'a'.repeat(31)}`), /secret/],
      [get(abs, undefined, { 'sec-fetch-site': 'cross-site' }), /only to the page flameview opened/],
      [get(join(root, 'src', 'evil.c')), /not a file this recording names/],
    ];
    for (const [reply, reason] of cases) {
      const r = await reply;
      expect([403, 404]).toContain(r.statusCode);
      expect(JSON.parse(r.body).error).toMatch(reason);
    }
    expect((await get(abs, `/api/source/${'b'.repeat(32)}`)).statusCode).toBe(403);
  });

  it('refuses .., a file outside the roots, and symbolic links out of a root (403), says 404 for a missing file', async () => {
    const named = {
      dots: `${root}/src/../src/loop.c`, // written out: join() would normalise the '..' away
      dotsRelative: '../secret/key.txt',
      outside: join(outside, 'key.txt'),
      missingOutside: join(outside, 'nothing.c'),
      linkFile: join(root, 'src', 'link.c'),
      linkDir: join(root, 'out', 'key.txt'),
      linkRelative: 'out/key.txt',
      directory: join(root, 'src'),
      missing: join(root, 'src', 'gone.c'),
      big: join(root, 'big.c'),
    };
    const { get } = await setup(Object.values(named), 32);
    const expectations: [keyof typeof named, number, RegExp][] = [
      ['dots', 403, /'\.\.' segment/],
      ['dotsRelative', 403, /'\.\.' segment/],
      ['outside', 403, /outside the source roots .*--source-root/],
      ['missingOutside', 403, /outside the source roots/],
      ['linkFile', 403, /symbolic link/],
      ['linkDir', 403, /symbolic link/],
      ['linkRelative', 403, /symbolic link/],
      ['directory', 403, /not a regular file/],
      ['missing', 404, /not found under the source roots/],
      ['big', 413, /over the 32-byte limit/],
    ];
    for (const [key, status, reason] of expectations) {
      const r = await get(named[key]);
      expect(r.statusCode, key).toBe(status);
      expect(JSON.parse(r.body).error, key).toMatch(reason);
      expect(r.body, key).not.toContain('do not serve');
    }
  });

  it('a root that is not a directory is an error at start; the team server never serves source', async () => {
    await expect(FileGuard.create({ roots: [join(dir, 'none')], names: new Set() })).rejects.toThrow(/source root .*none: no such directory/);
    const abs = join(root, 'src', 'loop.c');
    const guard = await FileGuard.create({ roots: [root], names: new Set([abs]) });
    const backend = diskBackend();
    const store = await (await backend.create()).open();
    const app = await buildApp({ distDir: fixtureDist(), store, sources: guard });
    apps.push(app);
    const r = await app.inject({ method: 'GET', url: `${sourceBase(guard)}?path=${encodeURIComponent(abs)}` });
    expect(r.statusCode).toBe(404);
    expect(r.body).not.toContain('int main');
    await store.close();
    await backend.cleanup();
  });
});
