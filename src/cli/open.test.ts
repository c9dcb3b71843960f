// `bin/flameview [--no-open] FILE…`, spawned as a real process against a tiny stand-in app.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { collapseLines } from '../core/export/folded';
import { loadProfileFromText } from '../core/import/load';
import { BIN, FIXTURES, INDEX_HTML, expectCleanInterrupt, fixtureDist, killAll, runCli, spawnTracked, tempDir, waitForLine, type Spawned } from '../server/test-support';

const LOCAL = String.raw`\/api\/local\/[0-9a-f]{32}\/[A-Za-z0-9._-]+`;
const URL_LINE = new RegExp(String.raw`^http:\/\/127\.0\.0\.1:\d+\/#profile=${LOCAL}(&compare=${LOCAL})?(&original=${LOCAL})?(&source=\/api\/source\/[0-9a-f]{32})?(&asm=\/api\/asm\/[0-9a-f]{32})?$`);
const foldedPath = join(FIXTURES, 'rust-toyc.folded');
const perfPath = join(FIXTURES, 'rust-toyc.perf-script.txt');

const dirs: string[] = [];
afterEach(async () => {
  await killAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dist(): string {
  const d = fixtureDist();
  dirs.push(d);
  return d;
}

function scratch(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

/** ~75 MB of distinct stacks: a parse that outlasts the server's start (~3 s against ~0.3 s here). */
function bigFolded(): string {
  const lines: string[] = [];
  for (let i = 0; i < 600_000; i++) lines.push(`main;serve_${i % 97};handle_${i % 1009};parse_${i % 7919};leaf_${i} ${1 + (i % 5)}`);
  return `${lines.join('\n')}\n`.repeat(2);
}

function open(args: string[], env: Record<string, string> = {}, cwd?: string): Spawned {
  return runCli(args, { env: { ...process.env, FLAMEVIEW_DIST: dist(), ...env }, cwd });
}

/** The profile URLs of the link printed on stdout (and its original=), resolved against its server. */
async function served(s: Spawned): Promise<{ base: string; profiles: string[]; original: string | null }> {
  const line = await waitForLine(s, URL_LINE);
  const url = new URL(line);
  const hash = new URLSearchParams(url.hash.slice(1));
  const profiles = [hash.get('profile'), hash.get('compare')].filter((p): p is string => p !== null).map((p) => new URL(p, url).href);
  const original = hash.get('original');
  return { base: url.origin, profiles, original: original === null ? null : new URL(original, url).href };
}

/** `served` is the processed form (not gzipped) of the recording at `path`: every view the same. */
async function expectProcessedOf(served: Buffer, path: string): Promise<void> {
  expect(served.subarray(0, 20).toString()).toBe('flameview-processed\n');
  const [back, want] = await Promise.all([loadProfileFromText(served), loadProfileFromText(readFileSync(path))]);
  expect(back.meta.format).toBe(want.meta.format);
  for (const view of ['inline', 'functions'] as const) expect(collapseLines(back, { view })).toEqual(collapseLines(want, { view }));
  expect(back.samples?.count ?? 0).toBe(want.samples?.count ?? 0);
}

async function bytes(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/octet-stream');
  return Buffer.from(await res.arrayBuffer());
}

/**
 * Resolves once the recording of the link `url` is parsed: its request waits for that, as the
 * page's does (the link is printed first; the source files it names are known only then).
 */
async function untilParsed(url: URL): Promise<void> {
  const res = await fetch(new URL(new URLSearchParams(url.hash.slice(1)).get('profile')!, url));
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

async function failure(s: Spawned): Promise<{ code: number | null; stderr: string }> {
  const { code } = await s.exit;
  return { code, stderr: s.stderr() };
}

describe('flameview FILE', () => {
  it('--no-open prints only a URL that serves the app, the processed recording and the file', async () => {
    const s = open(['--no-open', foldedPath]);
    const { base, profiles, original } = await served(s);
    expect(s.stdout()).toMatch(/^http:\S+\n$/); // nothing else on stdout
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toBe(INDEX_HTML);
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatch(/\/rust-toyc\.folded$/); // the name, for the page to show
    // Parsed here: the page gets the processed form, and the file itself as original= (other events).
    await expectProcessedOf(await bytes(profiles[0]), foldedPath);
    expect(s.stderr()).toMatch(/^flameview: read rust-toyc\.folded in \d+\.\d s$/m);
    expect(original).toMatch(/\/rust-toyc\.folded$/);
    expect(Buffer.compare(await bytes(original!), readFileSync(foldedPath))).toBe(0);
    expect(Buffer.compare(await bytes(original!.replace(/\/[^/]+$/, '')), readFileSync(foldedPath))).toBe(0);
    // Byte ranges, for the page's part workers (parallel parsing of the original).
    const whole = readFileSync(foldedPath);
    const part = await fetch(original!, { headers: { range: 'bytes=10-29' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-29/${whole.length}`);
    expect(Buffer.compare(Buffer.from(await part.arrayBuffer()), whole.subarray(10, 30))).toBe(0);
    const tail = await fetch(original!, { headers: { range: `bytes=${whole.length - 5}-` } });
    expect(Buffer.from(await tail.arrayBuffer()).toString()).toBe(whole.subarray(whole.length - 5).toString());
    expect((await fetch(original!, { headers: { range: `bytes=${whole.length}-` } })).status).toBe(416);
    expect(part.headers.get('accept-ranges')).toBe('bytes');
    // Only the named file: another token, or a path, is not served.
    expect((await fetch(`${base}/api/local/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${base}/api/local/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
  });

  it('FLAMEVIEW_WORKERS=1 serves no byte ranges, so the page reads the file with one parser', async () => {
    const s = open(['--no-open', '--raw', foldedPath], { FLAMEVIEW_WORKERS: '1' });
    const { profiles } = await served(s);
    const res = await fetch(profiles[0], { headers: { range: 'bytes=10-29' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('none');
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), readFileSync(foldedPath))).toBe(0);
  });

  it('two files give a comparison link of both processed; with --raw, gzip is served as it is', async () => {
    const gz = join(scratch(), 'b.perf-script.txt.gz');
    writeFileSync(gz, gzipSync(readFileSync(perfPath)));
    const both = await served(open(['--no-open', foldedPath, gz]));
    expect(both.profiles).toHaveLength(2);
    await expectProcessedOf(await bytes(both.profiles[0]), foldedPath);
    await expectProcessedOf(await bytes(both.profiles[1]), gz);
    expect(Buffer.compare(await bytes(both.original!), readFileSync(foldedPath))).toBe(0);

    const raw = await served(open(['--no-open', '--raw', foldedPath, gz]));
    expect(raw.original).toBeNull();
    expect(Buffer.compare(await bytes(raw.profiles[0]), readFileSync(foldedPath))).toBe(0);
    expect(Buffer.compare(await bytes(raw.profiles[1]), readFileSync(gz))).toBe(0);
  });

  it('reads stdin with -', async () => {
    const s = open(['--no-open', '-']);
    s.child.stdin.end(readFileSync(perfPath));
    const { profiles, original } = await served(s);
    await expectProcessedOf(await bytes(profiles[0]), perfPath);
    expect(Buffer.compare(await bytes(original!), readFileSync(perfPath))).toBe(0);
  });

  it('a file the parser refuses past its start is served as it is, and stderr says so', async () => {
    // A gzip stream cut off: its start sniffs as folded stacks, its end fails to decompress.
    const lines = Array.from({ length: 60_000 }, (_, i) => `main;${randomBytes(8).toString('hex')};leaf${i} ${i + 1}\n`).join('');
    const zipped = gzipSync(lines);
    expect(zipped.length).toBeGreaterThan(600_000);
    const bad = join(scratch(), 'bad.folded.gz');
    writeFileSync(bad, zipped.subarray(0, 500_000));
    const s = open(['--no-open', bad]);
    const { profiles, original } = await served(s);
    // The link is printed before the parse ends, so it names the file as original= too.
    expect(Buffer.compare(await bytes(profiles[0]), readFileSync(bad))).toBe(0);
    expect(Buffer.compare(await bytes(original!), readFileSync(bad))).toBe(0);
    expect(s.stderr()).toContain('flameview: bad.folded.gz: serving the file as it is, for the page to read\n');
  });

  it('a missing file is one line and exit status 1', async () => {
    const r = await failure(open(['--no-open', '/nonexistent/flameview/x.folded']));
    expect(r).toEqual({ code: 1, stderr: 'flameview: /nonexistent/flameview/x.folded: no such file\n' });
  });

  it('an unreadable file or a directory is one line and exit status 1', async () => {
    const dir = scratch();
    const r = await failure(open(['--no-open', dir]));
    expect(r).toEqual({ code: 1, stderr: `flameview: ${dir}: is a directory\n` });

    // Root reads a chmod 000 file anyway, so as root the CLI runs without the two capabilities
    // that let it (setpriv, util-linux): still root, so it reads the checkout wherever it lives
    // (a private mktemp -d included), which running it as nobody could not.
    const file = join(dir, 'secret.folded');
    writeFileSync(file, 'main;a 1\n');
    chmodSync(file, 0o000);
    const env = { ...process.env, FLAMEVIEW_DIST: dist() };
    const s =
      process.getuid?.() === 0
        ? spawnTracked('setpriv', ['--bounding-set', '-dac_override,-dac_read_search', '--inh-caps', '-dac_override,-dac_read_search', process.execPath, BIN, '--no-open', file], { env })
        : runCli(['--no-open', file], { env });
    expect(await failure(s)).toEqual({ code: 1, stderr: `flameview: ${file}: permission denied\n` });
  });

  it('content that is not a recording is one line naming what was expected', async () => {
    // A picture, not a flame graph (flame graph SVGs are recordings flameview opens).
    const svg = join(scratch(), 'picture.svg');
    writeFileSync(svg, '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>\n');
    const r = await failure(open(['--no-open', svg]));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^flameview: \S+picture\.svg: not a recording flameview reads: expected perf script text or .*folded stacks.*found "<\?xml[^\n]*\n$/);
  });

  it('stopped while a large recording is still parsed: exits at once, 0, and leaves no temporary file', async () => {
    // The link is printed while the parse runs (checked: the parse has not said it is done).
    const big = join(scratch(), 'big.folded');
    writeFileSync(big, bigFolded());
    const tmp = scratch();
    const s = open(['--no-open', big], { TMPDIR: tmp });
    await served(s);
    expect(s.stderr()).not.toContain('flameview: read big.folded');
    s.child.kill('SIGTERM');
    expect((await s.exit).code).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
    expect(s.stderr()).not.toContain('flameview: read big.folded');
  });

  it('an error after the parse started (a missing --source-root) exits at once, 1, and leaves no temporary file', async () => {
    const big = join(scratch(), 'big.folded');
    writeFileSync(big, bigFolded());
    const tmp = scratch();
    const r = await failure(open(['--no-open', '--source-root', join(tmp, 'nowhere'), big], { TMPDIR: tmp }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nowhere/);
    expect(r.stderr).not.toContain('flameview: read big.folded');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('commands take precedence; ./NAME or -- NAME opens a file of that name', async () => {
    const cwd = scratch();
    writeFileSync(join(cwd, 'svg'), readFileSync(foldedPath));
    const bare = await failure(open(['--no-open', 'svg'], {}, cwd));
    expect(bare).toEqual({ code: 2, stderr: "flameview: 'svg' is a command: put it first (flameview svg …); to open a file named svg, use ./svg or -- svg\n" });
    for (const args of [['--no-open', './svg'], ['--no-open', '--', 'svg']]) {
      const s = open(args, {}, cwd);
      const { original } = await served(s);
      expect(Buffer.compare(await bytes(original!), readFileSync(foldedPath)), args.join(' ')).toBe(0);
      s.child.kill('SIGTERM');
      expect((await s.exit).code).toBe(0);
    }
    const unknown = await failure(open(['--bogus', foldedPath]));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^flameview: unknown option "--bogus"\nusage: /);
  });
});

describe('flameview perf.data', () => {
  /** A directory holding a stand-in `perf` (the real one needs a real recording). */
  function fakePerf(body: string): string {
    const bin = scratch();
    writeFileSync(join(bin, 'perf'), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, 'perf'), 0o755);
    return bin;
  }

  function perfData(): string {
    const file = join(scratch(), 'perf.data');
    writeFileSync(file, Buffer.concat([Buffer.from('PERFILE2'), Buffer.alloc(1024)]));
    return file;
  }

  it('runs perf script -i FILE, reports the samples, and serves the text', async () => {
    const data = perfData();
    const bin = fakePerf(`[ "$1" = script ] && [ "$2" = -i ] && [ "$3" = "${data}" ] || exit 9\necho 'perf: some warning' >&2\nexec /bin/cat '${perfPath}'`);
    const s = open(['--no-open', data], { PATH: bin });
    const { profiles, original } = await served(s);
    await expectProcessedOf(await bytes(profiles[0]), perfPath);
    expect(Buffer.compare(await bytes(original!), readFileSync(perfPath))).toBe(0);
    const headers = readFileSync(perfPath, 'utf8').split('\n').filter((l) => /^[^\s#]/.test(l)).length;
    expect(headers).toBeGreaterThan(100);
    expect(s.stderr()).toContain(`flameview: perf script ${data}: ${headers} samples\n`);
  });

  it('Ctrl+C while perf script still prints: exit status 130, and its partial text is removed', async () => {
    const data = perfData();
    const tmp = scratch();
    const started = join(scratch(), 'perf.pid');
    // perf prints a recording's text, then runs on (a long recording being printed).
    const bin = fakePerf(`/bin/cat '${perfPath}'\necho $$ > '${started}'\nexec sleep 60`);
    const s = open(['--no-open', data], { PATH: `${bin}:${process.env.PATH}`, TMPDIR: tmp });
    const written = () => readdirSync(tmp).some((d) => readdirSync(join(tmp, d)).some((f) => statSync(join(tmp, d, f)).size > 0));
    await expectCleanInterrupt(s, tmp, started, written);
  });

  it('--lines: perf script -F +srcline, so the page gets the source lines', async () => {
    const data = perfData();
    const want = `script -i ${data} -F hw:+srcline -F sw:+srcline -F raw:+srcline -F break:+srcline -F synth:+srcline --full-source-path`;
    const bin = fakePerf(`[ "$*" = '${want}' ] || exit 9\nexec /bin/cat '${perfPath}'`);
    const s = open(['--no-open', '--lines', data], { PATH: bin });
    // The page gets the processed form of what perf printed, and that text as the original.
    const { profiles, original } = await served(s);
    await expectProcessedOf(await bytes(profiles[0]), perfPath);
    expect(Buffer.compare(await bytes(original!), readFileSync(perfPath))).toBe(0);
  });

  it('--source-root: the page may read the source files the recording names under it, and no other', async () => {
    // perf printed base names (hot.c): found under the root by their path suffix.
    const root = scratch();
    mkdirSync(join(root, 'src'));
    copyFileSync(join(FIXTURES, 'source', 'hot.c'), join(root, 'src', 'hot.c'));
    writeFileSync(join(root, 'src', 'other.c'), 'not named by the recording\n');
    const recording = join(FIXTURES, 'source', 'hot.srcline.perf-script.txt');
    const s = open(['--no-open', '--source-root', root, recording]);
    const line = await waitForLine(s, URL_LINE);
    const url = new URL(line);
    const source = new URLSearchParams(url.hash.slice(1)).get('source');
    expect(source).toMatch(/^\/api\/source\/[0-9a-f]{32}$/);
    await untilParsed(url);
    await expect.poll(() => s.stderr()).toContain(`under ${root}\n`);
    const get = (secret: string, path: string) => fetch(`${url.origin}${secret}?path=${encodeURIComponent(path)}`);
    const hot = await get(source!, 'hot.c');
    expect(hot.status).toBe(200);
    expect(await hot.text()).toBe(readFileSync(join(FIXTURES, 'source', 'hot.c'), 'utf8'));
    expect(hot.headers.get('access-control-allow-origin')).toBeNull();
    expect((await get(source!, 'other.c')).status).toBe(403);
    expect((await get('/api/source/' + '0'.repeat(32), 'hot.c')).status).toBe(403);
    // Named by the recording, but not under the root.
    const libc = await get(source!, 'libc-start.c');
    expect(libc.status).toBe(404);
    expect(((await libc.json()) as { error: string }).error).toMatch(/not found under the source roots/);
  });

  it('a --symfs that is not a directory is refused before the server starts', async () => {
    const bad = await failure(open(['--no-open', '--symfs', join(FIXTURES, 'asm', 'no-such-dir'), join(FIXTURES, 'rust-toyc.folded')]));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('no-such-dir is not a directory');
  });

  it('--symfs: a perf.data recording gives the page a disassembly route, build ids checked against perf buildid-list', async () => {
    const asmDir = join(FIXTURES, 'asm');
    const s = open(['--no-open', '--symfs', asmDir, join(asmDir, 'loops.perf.data')]);
    const url = new URL(await waitForLine(s, URL_LINE));
    const base = new URLSearchParams(url.hash.slice(1)).get('asm');
    expect(base).toMatch(/^\/api\/asm\/[0-9a-f]{32}$/);
    await expect.poll(() => s.stderr()).toContain(`from the binaries under --symfs ${asmDir}\n`);
    const r = await fetch(`${url.origin}${base}?function=divide`);
    expect(r.status).toBe(200);
    const d = (await r.json()) as { buildId: { matches: boolean } | null; listing: { kind: string; text?: string }[] };
    expect(d.buildId?.matches).toBe(true);
    expect(d.listing.some((row) => row.kind === 'insn' && /\bdiv/.test(row.text ?? ''))).toBe(true);
  });

  it('--source-url passes its template to the page as srcurl=; one that makes no allowed link is one line and exit status 2', async () => {
    const template = 'https://github.com/o/r/blob/v1/{path}#L{line}';
    const s = open(['--no-open', '--source-url', template, join(FIXTURES, 'source', 'hot.srcline.perf-script.txt')]);
    const url = new URL(await waitForLine(s, /^http:\/\/127\.0\.0\.1:\d+\/#profile=\S+&srcurl=[^&\s]+$/));
    expect(new URLSearchParams(url.hash.slice(1)).get('srcurl')).toBe(template);
    const bad = await failure(open(['--no-open', '--source-url', 'javascript:alert(1)//{path}', join(FIXTURES, 'source', 'hot.srcline.perf-script.txt')]));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^flameview: --source-url: the source link template does not make a link of an allowed kind/m);
  });

  it('the working directory is the default source root; a missing root is one line and exit status 1', async () => {
    const root = scratch();
    copyFileSync(join(FIXTURES, 'source', 'hot.c'), join(root, 'hot.c'));
    const s = open(['--no-open', join(FIXTURES, 'source', 'hot.srcline.perf-script.txt')], {}, root);
    const url = new URL(await waitForLine(s, URL_LINE));
    const source = new URLSearchParams(url.hash.slice(1)).get('source');
    await untilParsed(url);
    expect((await fetch(`${url.origin}${source}?path=hot.c`)).status).toBe(200);
    const missing = await failure(open(['--no-open', '--source-root', join(root, 'nope'), join(FIXTURES, 'source', 'hot.srcline.perf-script.txt')]));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^flameview: source root .*nope: no such directory$/m);
    // A recording without lines names no source files: nothing is served (the link, printed before
    // the parse ends, has source= all the same), and --raw has no source=.
    const plain = new URL(await waitForLine(open(['--no-open', foldedPath], {}, root), URL_LINE));
    const none = new URLSearchParams(plain.hash.slice(1)).get('source');
    await untilParsed(plain);
    expect((await fetch(`${plain.origin}${none}?path=hot.c`)).status).toBe(403);
    expect(await waitForLine(open(['--no-open', '--raw', foldedPath]), URL_LINE)).not.toContain('source=');
  });

  it('says so in one line when perf is not installed, or fails', async () => {
    const data = perfData();
    const missing = await failure(open(['--no-open', data], { PATH: scratch() }));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^flameview: \S+perf\.data is a perf\.data file and reading it needs perf, which is not installed .*\n$/);
    expect(missing.stderr.split('\n')).toHaveLength(2);

    const bin = fakePerf(`echo "incompatible file format" >&2\nexit 1`);
    const broken = await failure(open(['--no-open', data], { PATH: bin }));
    expect(broken).toEqual({ code: 1, stderr: `flameview: perf script failed on ${data}: incompatible file format\n` });
  });

  it('converts a real perf.data with the real perf, when perf can record here', async (ctx) => {
    const data = join(scratch(), 'perf.data');
    const rec = spawnSync('perf', ['record', '-N', '-g', '-o', data, '--', '/bin/sh', '-c', 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'], { encoding: 'utf8' });
    const captured = /\((\d+) samples\)/.exec(rec.stderr ?? '');
    if (rec.status !== 0 || !captured) return ctx.skip(); // no perf, or no permission to record
    const s = open(['--no-open', data]);
    const { original } = await served(s);
    const text = (await bytes(original!)).toString('utf8');
    expect(text).toMatch(/^sh\s+\d+\s+[\d.]+:\s+\d+ \S+:/);
    expect(s.stderr()).toContain(`flameview: perf script ${data}: ${captured[1]} samples\n`);
  });

  it('reads perf.data from stdin too', async () => {
    const bin = fakePerf(`exec /bin/cat '${perfPath}'`);
    const s = open(['--no-open', '-'], { PATH: bin });
    s.child.stdin.end(Buffer.concat([Buffer.from('PERFILE2'), Buffer.alloc(64)]));
    const { original } = await served(s);
    expect(Buffer.compare(await bytes(original!), readFileSync(perfPath))).toBe(0);
  });
});


describe('several recordings from the terminal (issue 31)', () => {
  const GROUP_LINE = new RegExp(String.raw`^http:\/\/127\.0\.0\.1:\d+\/#profile=${LOCAL}(&(profile|compare)=${LOCAL})+(&source=/api/source/[0-9a-f]{32})?$`);
  const group = (name: string) => join(FIXTURES, 'groups', name);
  const params = async (s: Spawned) => {
    const url = new URL(await waitForLine(s, GROUP_LINE));
    const hash = new URLSearchParams(url.hash.slice(1));
    return { url, profiles: hash.getAll('profile'), compares: hash.getAll('compare'), original: hash.get('original') };
  };

  it('--sum a b c: a profile= each, in order (the page shows their sum), each served processed', async () => {
    const files = ['a1.folded', 'a2.folded', 'b1.folded'].map(group);
    const p = await params(open(['--no-open', '--sum', ...files]));
    expect(p.profiles.map((x) => x.split('/').pop())).toEqual(['a1.folded', 'a2.folded', 'b1.folded']);
    expect(p.compares).toEqual([]);
    expect(p.original).toBeNull();
    for (const [i, f] of files.entries()) await expectProcessedOf(await bytes(new URL(p.profiles[i], p.url).href), f);
  });

  it('a1 a2 vs b1 b2: each side in profile= and compare=, as diff takes them', async () => {
    const p = await params(open(['--no-open', group('a1.folded'), group('a2.folded'), 'vs', group('b1.folded'), group('b2.folded')]));
    expect(p.profiles.map((x) => x.split('/').pop())).toEqual(['a1.folded', 'a2.folded']);
    expect(p.compares.map((x) => x.split('/').pop())).toEqual(['b1.folded', 'b2.folded']);
  });

  it('a bad option value is a usage error: one line, exit status 2, as for every command', async () => {
    for (const [args, message] of [
      [['--port', '99999', foldedPath], '--port needs a port number (0-65535), found "99999"'],
      [['--port', 'abc', foldedPath], '--port needs a port number (0-65535), found "abc"'],
      [[foldedPath, '--source-root'], '--source-root needs a directory'],
      [[foldedPath, '--symfs'], '--symfs needs a directory'],
    ] as const) {
      expect(await failure(open(['--no-open', ...args]))).toEqual({ code: 2, stderr: `flameview: ${message}\n` });
    }
  });

  it('three files without --sum or vs, --sum of one, and an empty side are usage errors that say what to write', async () => {
    const three = await failure(open(['--no-open', group('a1.folded'), group('a2.folded'), group('a3.folded')]));
    expect(three.code).toBe(2);
    expect(three.stderr).toContain('found 3: --sum a b c opens their sum, a1 a2 vs b1 b2 compares groups');
    expect((await failure(open(['--no-open', '--sum', group('a1.folded')]))).stderr).toContain('--sum needs two recordings or more, found 1');
    expect((await failure(open(['--no-open', group('a1.folded'), 'vs']))).stderr).toContain('a group is empty: 1 recording(s) before vs, 0 after');
    expect((await failure(open(['--no-open', '--sum', group('a1.folded'), 'vs', group('b1.folded')]))).stderr).toContain('--sum opens one graph');
  });
});
