// `flameview html`: usage errors, a missing build and unreadable input are one line each; the
// report holds the app's files as a tiny fixture app gives them and the recording processed,
// which reads back to the same folded stacks as the text it came from. (e2e/report.spec.ts opens
// real reports in Chromium.)

import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromBase64 } from '../core/export/report';
import { runCollapse } from './collapse';
import { runHtml } from './html';
import { runLines } from './lines';
import { runInMemory } from './run-in-memory';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fx = (p: string) => join(root, 'fixtures', p);
const dir = mkdtempSync(join(tmpdir(), 'flameview-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A built app of the shape vite writes: an entry module referring to a worker.
const dist = join(dir, 'dist');
mkdirSync(join(dist, 'assets'), { recursive: true });
writeFileSync(join(dist, 'index.html'), '<script type="module" crossorigin src="./assets/index-A.js"></script><link rel="stylesheet" crossorigin href="./assets/index-B.css">');
writeFileSync(join(dist, 'assets', 'index-A.js'), 'new Worker(new URL(new URL(`w-C.js`,import.meta.url).href,``+import.meta.url))');
writeFileSync(join(dist, 'assets', 'w-C.js'), 'postMessage(1)');
writeFileSync(join(dist, 'assets', 'index-B.css'), 'body{}');

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.FLAMEVIEW_DIST;
  process.env.FLAMEVIEW_DIST = dist;
});
afterEach(() => {
  vi.unstubAllEnvs();
  if (saved === undefined) delete process.env.FLAMEVIEW_DIST;
  else process.env.FLAMEVIEW_DIST = saved;
});

describe('flameview html', () => {
  it('answers usage errors with exit status 2', async () => {
    expect((await runInMemory(runHtml, ['-o', 'x.html'])).stderr).toMatch(/^flameview html: expected FILE or FILE FILE2, got 0 files\n/);
    expect((await runInMemory(runHtml, ['a', 'b', 'c', '-o', 'x.html'])).code).toBe(2);
    expect((await runInMemory(runHtml, ['-', '-', '-o', 'x.html'])).stderr).toMatch(/only one of FILE and FILE2 can be -/);
    const noOut = await runInMemory(runHtml, [fx('rust-toyc.folded')]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/missing -o OUT.html/);
  });

  it('fails with one line on a missing build or an unreadable recording', async () => {
    process.env.FLAMEVIEW_DIST = join(dir, 'nowhere');
    const r = await runInMemory(runHtml, [fx('rust-toyc.folded'), '-o', join(dir, 'x.html')]);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `flameview html: ${join(dir, 'nowhere')}/index.html is missing (FLAMEVIEW_DIST)\n` });
    process.env.FLAMEVIEW_DIST = dist;
    const missing = await runInMemory(runHtml, [join(dir, 'absent.txt'), '-o', join(dir, 'x.html')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('absent.txt');
  });

  it('writes the app and the two recordings, processed, which read back as the text did', async () => {
    const out = join(dir, 'ab.html');
    const r = await runInMemory(runHtml, [fx('rust-toyc.run-a.perf-script.txt'), fx('rust-toyc.run-b.perf-script.txt'), '-o', out]);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    const html = readFileSync(out, 'utf8');
    const app = JSON.parse(/<script type="application\/json" id="flameview-app">([^<]*)<\/script>/.exec(html)![1]!);
    expect(app).toEqual({ main: 'assets/index-A.js', css: 'body{}', files: { 'assets/index-A.js': expect.any(String), 'assets/w-C.js': 'postMessage(1)' } });
    expect(html).toContain('<title>rust-toyc.run-a.perf-script.txt vs rust-toyc.run-b.perf-script.txt · flameview</title>');
    for (const [i, name] of ['rust-toyc.run-a.perf-script.txt', 'rust-toyc.run-b.perf-script.txt'].entries()) {
      const m = new RegExp(`<script type="application/octet-stream" id="flameview-recording-${i}" data-name="${name.replace(/\./g, '\\.')}">([^<]*)</script>`).exec(html);
      expect(m).not.toBeNull();
      const processed = join(dir, `${i}.flameview`);
      writeFileSync(processed, gunzipSync(fromBase64(m![1]!)));
      const [back, text] = await Promise.all([runInMemory(runCollapse, [processed]), runInMemory(runCollapse, [fx(name)])]);
      expect(back.stdout).toBe(text.stdout);
      expect(back.stdout.length).toBeGreaterThan(1000);
    }
  });

  it('--lines: a perf.data report keeps its source lines (--symfs finds the binary on another machine)', async () => {
    // Another machine: a HOME of its own (no ~/.debug), the binary only under --symfs.
    vi.stubEnv('HOME', mkdtempSync(join(dir, 'home-')));
    const asm = fx('asm');
    const linesOf = async (options: string[]) => {
      const out = join(dir, 'lines.html');
      const r = await runInMemory(runHtml, [...options, '--symfs', asm, join(asm, 'loops.perf.data'), '-o', out]);
      expect(r.code, r.stderr).toBe(0);
      const m = /id="flameview-recording-0" data-name="loops\.perf\.data">([^<]*)</.exec(readFileSync(out, 'utf8'));
      const processed = join(dir, 'lines.flameview');
      writeFileSync(processed, gunzipSync(fromBase64(m![1]!)));
      return runInMemory(runLines, ['chase', processed]);
    };
    const withLines = await linesOf(['--lines']);
    expect(withLines.code, withLines.stderr).toBe(0);
    // Its loop, `at = next[at]`, is loops.c:17: perf annotate puts 99.97 % of chase on it.
    expect(withLines.stdout).toMatch(/^[\d.]+ s\t9\d\.\d\d%\t.*\/loops\.c:17$/m);
    expect((await linesOf([])).code).toBe(1);
  });

  it('refuses a --symfs that is not a directory, in one line', async () => {
    const r = await runInMemory(runHtml, ['--symfs', join(dir, 'none'), fx('rust-toyc.folded'), '-o', join(dir, 'y.html')]);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `flameview html: --symfs ${join(dir, 'none')} is not a directory\n` });
  });
});
