import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { parseBytes } from '../server/lifecycle';
import { INDEX_HTML, fixtureDist, killAll, runCli, tempDir, waitForLine } from '../server/test-support';
import { main } from './main';

const dirs: string[] = [];
afterEach(async () => {
  await killAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function run(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await main(args, { stdout, stderr, stdin: new PassThrough() });
  return { code, out, err };
}

it('serve: usage errors are exit status 2 with the usage line', async () => {
  for (const [args, message] of [
    [['serve'], '--store DIR is required'],
    [['serve', '--store'], '--store needs a directory'],
    [['serve', '--store', 'x', '--port', 'http'], '--port needs a port number (0-65535), found "http"'],
    [['serve', '--store', 'x', '--port', '70000'], '--port needs a port number (0-65535), found "70000"'],
    [['serve', '--store', 'x', '--max-upload', '-5'], '--max-upload needs a size in bytes (e.g. 1073741824 or 1g), found "-5"'],
    [['serve', '--store', 'x', '--verbose'], 'unknown option "--verbose"'],
  ] as const) {
    const r = await run([...args]);
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.err).toBe(`flameview serve: ${message}\nusage: flameview serve --store DIR [--port N] [--host ADDR] [--max-upload BYTES]\n`);
  }
});

it('serve: a store that is not a directory, or an address that is not local, is one line and exit 1', async () => {
  const dir = tempDir();
  dirs.push(dir);
  const file = join(dir, 'file');
  writeFileSync(file, 'x');
  const r = await run(['serve', '--store', file, '--port', '0']);
  expect(r).toEqual({ code: 1, out: '', err: `flameview serve: ${file}: not a directory\n` });

  const saved = process.env.FLAMEVIEW_DIST;
  const dist = tempDir();
  dirs.push(dist);
  writeFileSync(join(dist, 'index.html'), '<!doctype html>');
  process.env.FLAMEVIEW_DIST = dist;
  try {
    const bad = await run(['serve', '--store', join(dir, 'store'), '--port', '0', '--host', '192.0.2.1']);
    expect(bad).toEqual({ code: 1, out: '', err: 'flameview serve: cannot listen on 192.0.2.1: no such local address\n' });
  } finally {
    if (saved === undefined) delete process.env.FLAMEVIEW_DIST;
    else process.env.FLAMEVIEW_DIST = saved;
  }
});

it('parses byte sizes with binary suffixes', () => {
  expect(parseBytes('1073741824')).toBe(1024 ** 3);
  expect(parseBytes('1g')).toBe(1024 ** 3);
  expect(parseBytes('512k')).toBe(512 * 1024);
  expect(parseBytes('10MiB')).toBe(10 * 1024 ** 2);
  expect(parseBytes('1.5g')).toBeNull();
  expect(parseBytes('')).toBeNull();
});

it('serve-demo (npm start) serves the app alone, and stops cleanly on SIGTERM', async () => {
  const dist = fixtureDist();
  dirs.push(dist);
  const s = runCli(['serve-demo', '--no-open', '--port', '0'], { env: { ...process.env, FLAMEVIEW_DIST: dist } });
  const url = await waitForLine(s, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(await (await fetch(url)).text()).toBe(INDEX_HTML);
  expect((await fetch(`${url}api/profiles`)).status).toBe(404); // no store, no uploads
  s.child.kill('SIGTERM');
  expect((await s.exit).code).toBe(0);
});
