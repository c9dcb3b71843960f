// The npm package, as a user gets it: `npm pack` (which builds the app and the CLI), `npm install
// -g` of the tarball into a temporary prefix, then the installed `flameview` run from a directory
// outside the checkout with a PATH of that prefix, node and the system's basics, so nothing of
// the checkout (its node_modules, tsx, vite, src/) can stand in for what the package lacks.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, killAll, spawnTracked, tempDir, waitForLine } from '../src/server/test-support';
import { REPO_ROOT } from '../src/server/dist';
import { s3Backend } from '../src/server/test-backends';

const work = tempDir('flameview-package-');
const prefix = join(work, 'prefix');
const home = join(work, 'home');
const installed = join(prefix, 'bin', 'flameview');
const env = {
  PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
  HOME: home,
  LANG: 'C.UTF-8',
};

function npm(args: string[]): string {
  // loglevel warn: an engine warning (EBADENGINE) must show up in the output to be caught.
  const r = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: work, encoding: 'utf8', env: { ...process.env, npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? work, '.npm') } });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout + r.stderr;
}

let tarball = '';
let installLog = '';

beforeAll(() => {
  const out = spawnSync('npm', ['pack', '--pack-destination', work, '--loglevel=error'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`npm pack failed:\n${out.stdout}\n${out.stderr}`);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? 'missing.tgz');
  installLog = npm(['install', '-g', '--prefix', prefix, tarball]);
}, 600_000);

afterAll(async () => {
  await killAll();
  rmSync(work, { recursive: true, force: true });
});

function run(args: string[], input?: Buffer) {
  return spawnSync(installed, args, { cwd: work, env, input, encoding: 'utf8', maxBuffer: 64 << 20 });
}

describe('npm pack, npm install -g, run the installed flameview', () => {
  it('installs the compiled CLI and the built app, without tsx, vite, engine warnings or install scripts', () => {
    const root = join(prefix, 'lib', 'node_modules', 'flameview');
    expect(existsSync(join(root, 'dist', 'node', 'flameview.mjs'))).toBe(true);
    expect(existsSync(join(root, 'dist', 'app', 'index.html'))).toBe(true);
    expect(existsSync(join(root, 'src'))).toBe(false);
    for (const dev of ['tsx', 'vite', 'esbuild', 'react']) expect(existsSync(join(root, 'node_modules', dev)), dev).toBe(false);
    expect(installLog).not.toMatch(/EBADENGINE|Unsupported engine/);
    // No script of the package asks to run at install time (npm 11 would list it here).
    expect(installLog).not.toMatch(/install-scripts/);
  });

  it('--help, and a typo that looks like a command', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: flameview/);
    const typo = run(['tpo']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe("flameview: unknown command 'tpo'; did you mean top? (to open a file named tpo, use ./tpo)\n");
  });

  it('collapse prints inferno-collapse-perf’s expected output', () => {
    const inferno = join(FIXTURES, 'third_party/inferno/tests/data/collapse-perf');
    const perf = join(inferno, 'go-stacks.txt');
    const r = run(['collapse', perf]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(inferno, 'results/go-stacks-collapsed.txt'), 'utf8'));
    const fromStdin = run(['collapse', '-'], readFileSync(perf));
    expect(fromStdin.stdout).toBe(r.stdout);
  });

  it('flameview --no-open FILE serves the built app and the recording', async () => {
    const s = spawnTracked(installed, ['--no-open', join(FIXTURES, 'rust-toyc.folded')], { cwd: work, env });
    const url = new URL(await waitForLine(s, /^http:\/\/127\.0\.0\.1:\d+\/#profile=/));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<script type="module"[^>]* src="\.\/assets\/index-[\w-]+\.js"/);
    const script = /src="\.\/(assets\/index-[\w-]+\.js)"/.exec(html)![1];
    expect((await fetch(new URL(script, url))).status).toBe(200);
    // The recording parsed by the CLI (processed), and the file itself as original=.
    const hash = new URLSearchParams(url.hash.slice(1));
    const profile = await fetch(new URL(hash.get('profile')!, url));
    expect(profile.status).toBe(200);
    expect(Buffer.from(await profile.arrayBuffer()).subarray(0, 20).toString()).toBe('flameview-processed\n');
    const original = await fetch(new URL(hash.get('original')!, url));
    expect(await original.text()).toBe(readFileSync(join(FIXTURES, 'rust-toyc.folded'), 'utf8'));
  });

  it('flameview serve --store DIR stores an upload and serves it', async () => {
    const store = join(work, 'store');
    const s = spawnTracked(installed, ['serve', '--store', store, '--port', '0', '--list'], { cwd: work, env });
    const base = (await waitForLine(s, /^http:\/\/127\.0\.0\.1:\d+\/$/)).replace(/\/$/, '');
    expect((await fetch(`${base}/`)).status).toBe(200);
    const body = readFileSync(join(FIXTURES, 'sqlite.folded'));
    const up = await fetch(`${base}/api/profiles`, { method: 'POST', body, headers: { 'x-filename': 'sqlite.folded' } });
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    expect((await fetch(`${base}${url}`)).status).toBe(200);
    const list = (await (await fetch(`${base}/api/profiles`)).json()) as { name: string }[];
    expect(list.map((p) => p.name)).toEqual(['sqlite.folded']);
  });

  it('flameview serve --store s3://… loads the S3 store (a chunk of its own) and stores an upload in the bucket', async () => {
    const backend = await s3Backend();
    try {
      const ts = await backend.create();
      const s = spawnTracked(installed, ['serve', '--store', ts.location, ...ts.cliArgs, '--port', '0'], { cwd: work, env: { ...env, ...ts.env } });
      const base = (await waitForLine(s, /^http:\/\/127\.0\.0\.1:\d+\/$/)).replace(/\/$/, '');
      const body = readFileSync(join(FIXTURES, 'sqlite.folded'));
      const up = await fetch(`${base}/api/profiles`, { method: 'POST', body });
      expect(up.status).toBe(201);
      const { id } = (await up.json()) as { id: string };
      expect(await ts.committed()).toEqual([id]);
      expect(Buffer.compare(Buffer.from(await (await fetch(`${base}/api/profiles/${id}`)).arrayBuffer()), body)).toBe(0);
      await killAll();
      await backend.cleanup();
    } finally {
      await backend.stop();
    }
  });

  it('top, svg and diff run from the package', () => {
    const top = run(['top', '-n', '3', join(FIXTURES, 'rust-toyc.folded')]);
    expect(top.status).toBe(0);
    expect(top.stdout.trim().split('\n')).toHaveLength(4); // header + 3
    writeFileSync(join(work, 'in.folded'), 'main;work 3\nmain;idle 1\n');
    const svg = run(['svg', join(work, 'in.folded')]);
    expect(svg.status).toBe(0);
    expect(svg.stdout).toMatch(/^<\?xml[\s\S]*<\/svg>\n?$/);
    writeFileSync(join(work, 'after.folded'), 'main;work 5\nmain;new 2\n');
    const diff = run(['diff', join(work, 'in.folded'), join(work, 'after.folded')]);
    expect(diff.status).toBe(0);
    expect(diff.stdout).toBe('main;idle 1 0\nmain;new 0 2\nmain;work 3 5\n');
  });
});
