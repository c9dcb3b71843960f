// `perf script -F +srcline` against the plain printing of the same perf.data (fixtures/srcline/):
// the same trees in both views, nothing skipped, and the lines kept beside the tree; the lines'
// self weights against `perf report --no-children --sort srcline` of that perf.data.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../../testing/fixtures';
import { loadProfileFromText } from '../load';
import { functionLines, framesMatching, leafLineWeights } from '../../query/source-lines';
import { parseSrcline } from './perf-srcline';
import type { Profile } from '../../model/profile';
import { viewTree } from '../../views/function-view';
import { frameName } from '../../model/frame-table';

export const SRCLINE_RECORDINGS = ['funcs', 'hashack', 'mixed-clang', 'toyc'] as const;

function text(name: string): string {
  return gunzipSync(fixtureBytes(`srcline/${name}`)).toString('utf8');
}

/** Every root-to-node path of a tree with its self weight, as `a;b;c weight` lines, sorted. */
function stacks(profile: Profile, view: 'inline' | 'functions'): string[] {
  const tree = viewTree(profile, view);
  const path: string[] = [];
  const out: string[] = [];
  for (let n = 1; n < tree.nodeCount; n++) {
    path.length = tree.depth[n] - 1;
    const f = tree.frame[n];
    path.push(`${frameName(profile.frames, f)}/${profile.frames.flags[f]}`);
    if (tree.selfWeight[n] > 0) out.push(`${path.join(';')} ${tree.selfWeight[n]} ${tree.selfSamples[n]}`);
  }
  return out.sort();
}

describe('parseSrcline', () => {
  it('reads FILE:LINE, the inline marker, and the unknown forms', () => {
    expect(parseSrcline('  t.c:3 (inlined)')).toEqual({ file: 't.c', line: 3, inlined: true });
    expect(parseSrcline('  /a b/c.h:1234')).toEqual({ file: '/a b/c.h', line: 1234, inlined: false });
    expect(parseSrcline('  ??:0')).toEqual({ file: '??', line: 0, inlined: false });
    expect(parseSrcline('  :0 (inlined)')).toEqual({ file: '', line: 0, inlined: true });
    expect(parseSrcline('  [kernel.kallsyms][ffffffff82252cd7]').line).toBe(-1);
    expect(parseSrcline('  stl_tree.h:0')).toEqual({ file: 'stl_tree.h', line: 0, inlined: false });
    expect(parseSrcline('  C:\\x.c:12\r')).toEqual({ file: 'C:\\x.c', line: 12, inlined: false });
  });
});

describe('perf script -F ip,sym (no header lines)', () => {
  const frame = (sym: string) => `\t            1000 ${sym}`;
  it('a recording that starts with frames and goes on so is read without headers, each sample weighing 1', async () => {
    const p = await loadProfileFromText(['', frame('leaf'), '  a.c:3 (inlined)', frame('main'), '  a.c:9', '', '', frame('main'), '  a.c:9', ''].join('\n'));
    expect(p.meta.samples).toBe(2);
    expect(p.meta.skippedLines).toBe(0);
    expect(stacks(p, 'inline')).toEqual(['main/0 1 1', 'main/0;leaf/1 1 1']);
    const fl = functionLines(p, 'inline', framesMatching(p, 'inline', (n) => n === 'main'))!;
    expect(fl.lines).toEqual([{ file: 'a.c', line: 9, self: 1, total: 2, selfSamples: 1, totalSamples: 2 }]);
    expect((await loadProfileFromText([frame('only'), ''].join('\n'))).meta.samples).toBe(1);
  });

  it('frames cut off at the start of a recording with headers are skipped, not a sample', async () => {
    const p = await loadProfileFromText([frame('orphan'), '  a.c:1', '', 'app  100   1.000000:   5 cpu-clock: ', frame('x'), '  a.c:2', ''].join('\n'));
    expect(p.meta.samples).toBe(1);
    expect(p.meta.skippedLines).toBe(2);
    expect(p.meta.warnings[0]).toMatchObject({ line: 1 });
    expect(stacks(p, 'inline')).toEqual(['app/0;x/0 5 1']);
  });
});

describe('perf script -F +srcline', () => {
  for (const name of SRCLINE_RECORDINGS) {
    it(`${name}: the same trees as without srcline, 0 skipped lines, every sample with its lines`, async () => {
      const plain = await loadProfileFromText(text(`${name}.perf-script.txt.gz`));
      const withLines = await loadProfileFromText(text(`${name}.srcline.perf-script.txt.gz`));
      expect(withLines.meta.skippedLines).toBe(0);
      expect(withLines.meta.warnings).toEqual([]);
      expect(withLines.meta.hasInlineInfo).toBe(plain.meta.hasInlineInfo);
      for (const view of ['inline', 'functions'] as const) expect(stacks(withLines, view)).toEqual(stacks(plain, view));
      expect(plain.lines ?? null).toBeNull();
      const lines = withLines.lines!;
      // The line tree projects onto the tree, and holds every sample.
      expect(lines.tree.totalWeight[0]).toBe(withLines.tree.totalWeight[0]);
      const selfByNode = new Float64Array(withLines.tree.nodeCount);
      for (let ln = 1; ln < lines.tree.nodeCount; ln++) {
        const node = lines.node[ln];
        expect(withLines.tree.frame[node]).toBe(lines.locatedFrame[lines.tree.frame[ln]]);
        expect(lines.node[lines.tree.parent[ln]]).toBe(withLines.tree.parent[node]);
        selfByNode[node] += lines.tree.selfWeight[ln];
      }
      expect([...selfByNode]).toEqual([...withLines.tree.selfWeight]);
      // Most frames have a known line.
      let known = 0;
      for (let ln = 1; ln < lines.tree.nodeCount; ln++) if (lines.locatedLocation[lines.tree.frame[ln]] >= 0) known += lines.tree.totalWeight[ln];
      expect(known).toBeGreaterThan(0);
    });

    it(`${name}: leaf lines agree with perf report --sort srcline within 0.2 % for every line above 0.5 %`, async () => {
      const profile = await loadProfileFromText(text(`${name}.srcline.perf-script.txt.gz`));
      const weights = leafLineWeights(profile)!;
      const all = profile.tree.totalWeight[0];
      const report = fixtureBytes(`srcline/${name}.srcline-report.txt`).toString('utf8');
      let checked = 0;
      for (const row of report.split('\n')) {
        const m = /^\s+([\d.]+)%\s+(\S.*?):(\d+)\s*$/.exec(row);
        if (!m || Number(m[1]) <= 0.5 || m[2] === '??') continue;
        const ours = (100 * (weights.get(`${m[2]}:${m[3]}`) ?? 0)) / all;
        expect(Math.abs(ours - Number(m[1])), `${m[2]}:${m[3]}: ours ${ours.toFixed(2)} %, perf report ${m[1]} %`).toBeLessThanOrEqual(0.2);
        checked++;
      }
      expect(checked).toBeGreaterThan(3);
    });
  }

  it('per-line weights of a function: selfs add up to the function self, totals once per sample', async () => {
    const profile = await loadProfileFromText(text('funcs.srcline.perf-script.txt.gz'));
    for (const view of ['inline', 'functions'] as const) {
      const match = framesMatching(profile, view, (n) => n === 'main');
      const fl = functionLines(profile, view, match)!;
      const selfs = fl.lines.reduce((s, l) => s + l.self, 0);
      expect(selfs).toBe(fl.self);
      for (const l of fl.lines) expect(l.total).toBeLessThanOrEqual(fl.total);
      expect(fl.total).toBeLessThanOrEqual(fl.all);
      expect(fl.lines.some((l) => l.file === 'funcs.cpp')).toBe(true);
    }
  });
});
