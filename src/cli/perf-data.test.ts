// perf.data given to collapse, top, svg and diff: each runs `perf script -i FILE` as the opener
// does (a stand-in perf on PATH prints a real recording's perf script text), with the opener's
// messages when perf is missing or fails. Spawned as real processes of bin/flameview.

import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, killAll, runCli, tempDir } from '../server/test-support';

const work = tempDir('flameview-perfdata-');
const perfText = join(FIXTURES, 'rust-toyc.perf-script.txt');
const data = join(work, 'perf.data');
writeFileSync(data, Buffer.concat([Buffer.from('PERFILE2'), Buffer.alloc(1024)]));

function fakePerf(name: string, body: string): string {
  const bin = join(work, name);
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin);
  writeFileSync(join(bin, 'perf'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, 'perf'), 0o755);
  return bin;
}

const goodPerf = fakePerf('good', `[ "$1" = script ] && [ "$2" = -i ] || exit 9\nexec /bin/cat '${perfText}'`);

async function run(args: string[], PATH: string) {
  const s = runCli(args, { env: { ...process.env, PATH } });
  const { code } = await s.exit;
  return { code, stdout: s.stdout(), stderr: s.stderr() };
}

afterEach(killAll);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('commands read perf.data through perf script', () => {
  it('collapse, top, svg and diff give what they give for the perf script text', async () => {
    for (const args of [['collapse'], ['top', '-n', '5'], ['svg', '--title', 'T'], ['diff']]) {
      const fromText = await run([...args, perfText, ...(args[0] === 'diff' ? [perfText] : [])], goodPerf);
      const fromData = await run([...args, data, ...(args[0] === 'diff' ? [data] : [])], goodPerf);
      expect(fromData.code, args[0]).toBe(0);
      expect(fromData.stdout, args[0]).toBe(fromText.stdout);
      expect(fromData.stderr, args[0]).toMatch(new RegExp(`^(flameview: perf script ${data}: \\d+ samples\\n)+$`));
    }
  });

  it('perf missing, or failing, is the opener’s one line and exit status 1', async () => {
    const missing = await run(['collapse', data], join(work, 'nothing-here'));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      `flameview: ${data} is a perf.data file and reading it needs perf, which is not installed (Debian/Ubuntu: apt install linux-perf); or run \`perf script -i ${data} | flameview -\` where perf is\n`,
    );
    const broken = await run(['top', data], fakePerf('broken', "echo 'incompatible file format' >&2; exit 1"));
    expect(broken).toEqual({ code: 1, stdout: '', stderr: `flameview: perf script failed on ${data}: incompatible file format\n` });
  });

  it('lines asks perf for the source lines (perf script -F +srcline) and gives what the text gives', async () => {
    const { gunzipSync } = await import('node:zlib');
    const srclineText = join(work, 'funcs.srcline.txt');
    writeFileSync(srclineText, gunzipSync(readFileSync(join(FIXTURES, 'srcline', 'funcs.srcline.perf-script.txt.gz'))));
    const srclinePerf = fakePerf('srcline', `[ "$1" = script ] && [ "$2" = -i ] && [ "$4" = -F ] && [ "$5" = +srcline ] && [ "$6" = --full-source-path ] || exit 9\nexec /bin/cat '${srclineText}'`);
    const fromText = await run(['lines', 'main', srclineText], srclinePerf);
    const fromData = await run(['lines', 'main', data], srclinePerf);
    expect(fromData.code).toBe(0);
    expect(fromData.stdout).toBe(fromText.stdout);
    expect(fromData.stdout).toMatch(/\tfuncs\.cpp:\d+\n/);
  });

  it('perf.data on stdin says to pass the file name', async () => {
    const s = runCli(['collapse', '-'], { env: { ...process.env, PATH: goodPerf } });
    s.child.stdin.end(readFileSync(data));
    expect((await s.exit).code).toBe(1);
    expect(s.stderr()).toBe('flameview: stdin is a perf.data file, which perf script reads only from a file: pass its name instead of -, or pipe `perf script` output\n');
  });
});
