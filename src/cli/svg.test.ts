// `flameview svg`: the written SVG opens again as the tree it was made from (both views, through
// the real CLI path), options, stdin, and one-line errors with the right exit codes.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../core/import/load';
import { dumpTree } from '../core/testing/tree-dsl';
import { viewTree } from '../core/views/function-view';
import type { CliIo } from './main';
import { main } from './main';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fx = (p: string) => join(root, 'fixtures', p);

async function run(args: string[], stdin: string | Buffer = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  let err = '';
  stdout.on('data', (d: Buffer) => out.push(d));
  stderr.on('data', (d) => (err += d));
  const io: CliIo = { stdout, stderr, stdin: Readable.from([Buffer.from(stdin)]) };
  const code = await main(['svg', ...args], io);
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: err };
}

describe('flameview svg', () => {
  it.each(['functions', 'inline'] as const)('rust-toyc --view %s --min-width 0 reopens as the same tree', async (view) => {
    const { code, stdout, stderr } = await run(['--view', view, '--min-width', '0', fx('rust-toyc.perf-script.txt')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const original = await loadProfileFromText(readFileSync(fx('rust-toyc.perf-script.txt')));
    const back = await loadProfileFromText(stdout);
    expect(dumpTree(back.tree, back.frames)).toBe(dumpTree(viewTree(original, view), original.frames));
    expect(stdout).toContain(`fv:view="${view}"`);
  });

  it('defaults: functions view when the recording has inline frames, title = file name, min width 0.1', async () => {
    const { code, stdout } = await run([fx('rust-toyc.perf-script.txt')]);
    expect(code).toBe(0);
    expect(stdout).toContain('fv:view="functions"');
    expect(stdout).toContain('<text id="title" x="600" y="24">rust-toyc.perf-script.txt</text>');
    const { stdout: folded } = await run([fx('sqlite.fp.folded')]);
    expect(folded).toContain('fv:view="inline"');
  });

  it('--width, --title, --search; reads stdin and other SVGs', async () => {
    const { code, stdout } = await run(['--width', '800', '--title', 'T <&>', '--search', '^alloc', '-'], readFileSync(fx('sqlite-functions.svg')));
    expect(code).toBe(0);
    expect(stdout).toContain('width="800"');
    expect(stdout).toContain('T &lt;&amp;&gt;');
    expect(stdout).toContain('fv:search="^alloc"');
    const back = await loadProfileFromText(stdout);
    expect(back.tree.totalWeight[0]).toBe(1160160159);
  });

  it('usage errors exit 2, unreadable input exits 1, one line each', async () => {
    for (const args of [['--view', 'x', 'f'], ['--width', 'wide', 'f'], ['--min-width', '-1', 'f'], ['--search', '(', 'f'], [], ['--bogus', 'f']]) {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^flameview svg: /);
    }
    const missing = await run([fx('no-such-file')]);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/no-such-file: cannot read: no such file\n$/);
    const notFlame = await run(['-'], '<?xml version="1.0"?>\n<svg><rect x="1" y="1" width="2"/></svg>\n');
    expect(notFlame.code).toBe(1);
    expect(notFlame.stderr).toMatch(/^flameview: <stdin>: line 1: expected perf script text or flamegraph SVG or .*, found "<\?xml version=\\"1.0\\"\?>"\n$/);
  });

  it('bin/flameview svg writes to stdout (spawned)', async () => {
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(join(root, 'bin/flameview'), ['svg', '--min-width', '0', fx('sqlite.fp.folded')], { cwd: root });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(out.code).toBe(0);
    expect(out.stdout.startsWith('<?xml')).toBe(true);
    expect(out.stdout.trimEnd().endsWith('</svg>')).toBe(true);
  }, 30000);
});
