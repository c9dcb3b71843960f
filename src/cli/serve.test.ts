import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { parseBytes } from '../server/lifecycle';
import { INDEX_HTML, fixtureDist, killAll, rawExchange, runCli, tempDir, waitForLine } from '../server/test-support';
import { main } from './main';
import { SERVE_USAGE } from './serve';

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
    [['serve'], '--store DIR or --store s3://BUCKET/PREFIX is required'],
    [['serve', '--store'], '--store needs a directory or s3://BUCKET/PREFIX'],
    [['serve', '--store', 'x', '--port', 'http'], '--port needs a port number (0-65535), found "http"'],
    [['serve', '--store', 'x', '--port', '70000'], '--port needs a port number (0-65535), found "70000"'],
    [['serve', '--store', 'x', '--max-upload', '-5'], '--max-upload needs a size in bytes (e.g. 1073741824 or 1g), found "-5"'],
    [['serve', '--store', 'x', '--verbose'], 'unknown option "--verbose"'],
    [['serve', '--store', 's3://bucket/p', '--s3-endpoint', 'localhost:9000'], '--s3-endpoint needs an http(s) URL, found "localhost:9000"'],
    [['serve', '--store', 'x', '--s3-endpoint', 'http://127.0.0.1:9000'], '--s3-endpoint goes with --store s3://BUCKET/PREFIX'],
    [['serve', '--store', 's3://bucket/p', '--max-upload', '6g'], '--max-upload is at most 5g with an S3 store (one CopyObject)'],
    [['serve', '--store', 'x', '--max-store', '1m', '--max-upload', '2m'], '--max-upload (2097152) is over --max-store (1048576)'],
    [['serve', '--store', 'x', '--expire-days', '0'], '--expire-days needs a whole number of at least 1, found "0"'],
    [['serve', '--store', 'x', '--rate-limit', 'many'], '--rate-limit needs a whole number of at least 0, found "many"'],
    [['serve', '--store', 'x', '--upload-token'], '--upload-token needs a file that holds the token'],
    [['serve', '--store', 'x', '--list=yes'], '--list takes no value'],
    [['serve', '--store', 'x', '--slow-client-seconds', '0'], '--slow-client-seconds needs a whole number of at least 1, found "0"'],
    [['serve', '--store', 'x', '--min-upload-rate', 'fast'], '--min-upload-rate needs a size in bytes (e.g. 1073741824 or 1g), found "fast"'],
  ] as const) {
    const r = await run([...args]);
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.err).toBe(`flameview serve: ${message}\n${SERVE_USAGE}`);
  }
});

it('serve: a missing or short upload token, or a bucket that is not there, is one line and exit 1', async () => {
  const dir = tempDir();
  dirs.push(dir);
  const missing = join(dir, 'no-such-token');
  expect(await run(['serve', '--store', join(dir, 's'), '--upload-token', missing])).toEqual({
    code: 1,
    out: '',
    err: `flameview serve: --upload-token ${missing}: no such file\n`,
  });
  writeFileSync(join(dir, 'short'), 'abc\n');
  expect((await run(['serve', '--store', join(dir, 's'), '--upload-token', join(dir, 'short')])).err).toBe(
    `flameview serve: ${join(dir, 'short')}: the upload token must be at least 16 characters\n`,
  );
  // Nothing listens on this port of 127.0.0.1: the bucket cannot be reached.
  const set = { AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y', AWS_MAX_ATTEMPTS: '1' };
  const saved = Object.fromEntries(Object.keys(set).map((k) => [k, process.env[k]]));
  Object.assign(process.env, set);
  try {
    const r = await run(['serve', '--store', 's3://no-bucket/x', '--s3-endpoint', 'http://127.0.0.1:9']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^flameview serve: cannot use bucket no-bucket at http:\/\/127\.0\.0\.1:9: .+\n$/);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
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

it('serve --slow-client-seconds 1: headers trickled to a real server are answered 408 within seconds', async () => {
  const store = tempDir('flameview-serve-slow-');
  const dist = fixtureDist();
  dirs.push(store, dist);
  const server = runCli(['serve', '--store', store, '--port', '0', '--slow-client-seconds', '1'], { env: { ...process.env, FLAMEVIEW_DIST: dist } });
  const { port } = new URL(await waitForLine(server, /^http:\/\/127\.0\.0\.1:\d+\/$/));
  const started = Date.now();
  // A header line every 200 ms, at most 100 of them (20 s).
  const answer = await rawExchange(Number(port), 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n', (n) => `x-drip: ${n}\r\n`, 200, 100);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(Date.now() - started).toBeLessThan(10_000);
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
