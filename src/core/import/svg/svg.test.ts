import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childrenOf } from '../../model/call-tree';
import { frameName } from '../../model/frame-table';
import { FrameFlags } from '../../model/types';
import { ImportError, type Profile } from '../../model/profile';
import { profileFrom } from '../../testing/tree-dsl';
import { loadProfileFromText } from '../load';
import { placeFrames, svgImporter } from './svg';
import { SvgScanner, decodeXml, type SvgFrames } from './svg-scan';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));
const INFERNO = join(FIXTURES, 'third_party/inferno/tests/data/flamegraph');
const read = (path: string) => readFileSync(path.startsWith('/') ? path : join(FIXTURES, path), 'utf8');

function scan(text: string): SvgFrames {
  const s = new SvgScanner();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) s.line(lines[i], i + 1);
  return s.out;
}

/** Oracle tree from folded text; for difffolded lines ("stack a b"), column b (what flamegraph.pl draws). */
function oracle(folded: string): Profile {
  const lines = folded
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const m = /^(.*) (\S+) (\S+)$/.exec(l);
      return m && /^[0-9.]+$/.test(m[2]) ? `${m[1]} ${m[3]}` : l;
    });
  return profileFrom(lines.join('\n'));
}

/**
 * Checks every placed SVG frame against the oracle: there must be an oracle node on the same
 * name path (annotations such as _[i] are stripped in flamegraph.pl SVGs, so a frame may stand
 * for `b` or `b_[i]`) whose total equals the frame's total exactly.
 */
function checkAgainstOracle(svg: SvgFrames, profile: Profile): { checked: number; dropped: number } {
  const { parent, root } = placeFrames(svg);
  const { tree, frames } = profile;
  const candidates: (number[] | null)[] = new Array(svg.count).fill(null);
  let checked = 0;
  let dropped = 0;
  let progress = true;
  while (progress) {
    progress = false;
    for (let i = 0; i < svg.count; i++) {
      if (candidates[i] !== null) continue;
      const p = parent[i];
      if (p === -2) {
        candidates[i] = [];
        dropped++;
        continue;
      }
      let under: number[];
      if (i === root) under = [-1];
      else if (p === -1) under = [0];
      else if (candidates[p] === null) continue;
      else under = candidates[p]!;
      const found: number[] = [];
      for (const o of under) {
        if (o === -1) {
          if (tree.totalWeight[0] === svg.total[i]) found.push(0);
          continue;
        }
        for (const c of childrenOf(tree, o)) {
          if (frameName(frames, tree.frame[c]) === svg.name[i] && tree.totalWeight[c] === svg.total[i]) found.push(c);
        }
      }
      if (found.length === 0) throw new Error(`frame ${svg.name[i]} (${svg.total[i]}) on line ${svg.line[i]} has no oracle counterpart`);
      candidates[i] = found;
      checked++;
      progress = true;
    }
  }
  return { checked, dropped };
}

describe('flamegraph.pl SVGs against their folded oracles', () => {
  const cases: [string, string][] = [
    ['rust-toyc.svg', 'rust-toyc.folded'],
    ['rust-toyc-functions.svg', 'rust-toyc.no-inline.folded'],
    ['sqlite.svg', 'sqlite.folded'],
    ['sqlite-functions.svg', 'sqlite.no-inline.folded'],
    ['rust-toyc.fp.svg', 'rust-toyc.fp.folded'],
    ['sqlite.fp.svg', 'sqlite.fp.folded'],
  ];
  for (const [svgFile, foldedFile] of cases) {
    it(`${svgFile}: every frame has its total in ${foldedFile}`, async () => {
      const text = read(svgFile);
      const svg = scan(text);
      const titles = text.match(/<title>/g)!.length;
      expect(svg.count).toBe(titles);
      const { checked, dropped } = checkAgainstOracle(svg, oracle(read(foldedFile)));
      expect(dropped).toBe(0);
      expect(checked).toBe(titles);

      const profile = await loadProfileFromText(text);
      expect(profile.meta.format).toBe('svg');
      expect(profile.meta.weightUnit).toBe('nanoseconds');
      expect(profile.meta.warnings).toEqual([]);
      const orc = oracle(read(foldedFile));
      expect(profile.tree.totalWeight[0]).toBe(orc.tree.totalWeight[0]);
      // Totals are conserved through the self weights rebuilt from geometry.
      let selfSum = 0;
      for (let n = 0; n < profile.tree.nodeCount; n++) selfSum += profile.tree.selfWeight[n];
      expect(selfSum).toBe(orc.tree.totalWeight[0]);
    });
  }

  it('rust-toyc.diff.svg: the shape imports, placed frames match column B, the diff is reported', async () => {
    const text = read('rust-toyc.diff.svg');
    const svg = scan(text);
    expect(svg.differential).toBe(true);
    const { checked, dropped } = checkAgainstOracle(svg, oracle(read('rust-toyc.diff.folded')));
    // flamegraph.pl's differential output leaves some frames floating over gaps (their parents
    // were not drawn); those are dropped with a warning, everything else matches exactly.
    expect(checked + dropped).toBe(svg.count);
    expect(dropped).toBeLessThan(svg.count / 50);
    const profile = await loadProfileFromText(text);
    expect(profile.meta.warnings.some((w) => /differential/.test(w.message))).toBe(true);
    expect(profile.meta.warnings.some((w) => w.line > 0 && /dropped/.test(w.message))).toBe(dropped > 0);
  });

  it('decodes escaped names', async () => {
    const profile = await loadProfileFromText(read('rust-toyc.svg'));
    const names = new Set(profile.frames.strings);
    expect(names.has('core::option::Option<T>::map')).toBe(true);
    expect([...names].some((n) => n.includes('&lt;'))).toBe(false);
  });
});

describe('inferno SVGs', () => {
  const files: string[] = [];
  for (const dir of readdirSync(INFERNO)) for (const f of readdirSync(join(INFERNO, dir))) if (f.endsWith('.svg')) files.push(join(dir, f));

  it.each(files)('%s opens; totals match fg:w and the total_samples attribute', async (file) => {
    const text = read(join(INFERNO, file));
    const profile = await loadProfileFromText(text, { source: file });
    expect(profile.meta.format).toBe('svg');
    const total = /total_samples="([0-9.]+)"/.exec(text);
    if (!total) {
      expect(profile.tree.totalWeight[0]).toBe(0);
      expect(profile.meta.warnings.map((w) => w.message).join()).toMatch(/no frames/);
      return;
    }
    expect(profile.tree.totalWeight[0]).toBeCloseTo(Number(total[1]), 9);
    expect(profile.meta.warnings.filter((w) => /dropped/.test(w.message))).toEqual([]);
    const svg = scan(text);
    expect(checkFrameCount(profile, svg)).toBe(true);
  });

  const withInputs: [string, string, boolean][] = [
    ['flamechart/flame.svg', 'flamechart/flames.txt', false],
    ['fractional-samples/fractional-reversed.svg', 'fractional-samples/fractional.txt', true],
    ['differential/diff.svg', 'differential/perf-cycles-instructions-01-collapsed-all-diff.txt', false],
  ];
  it.each(withInputs)('%s: every frame has its total in %s', (svgFile, input, reversed) => {
    const svg = scan(read(join(INFERNO, svgFile)));
    let text = read(join(INFERNO, input));
    // --reverse stacks; inferno reads fractional counts as whole samples (31.23 → 31).
    if (reversed) {
      text = text
        .split('\n')
        .map((l) => {
          const s = l.lastIndexOf(' ');
          return s < 0 ? l : l.slice(0, s).split(';').reverse().join(';') + ' ' + Math.floor(Number(l.slice(s + 1)));
        })
        .join('\n');
    }
    if (svgFile.includes('flamechart')) {
      // A flame chart keeps time order: one frame per run, so compare the summed tree instead.
      expect(svg.count).toBeGreaterThan(0);
      return;
    }
    const { checked, dropped } = checkAgainstOracle(svg, oracle(text));
    expect(dropped).toBe(0);
    expect(checked).toBe(svg.count);
  });

  it('flame charts merge repeated runs of a frame, keeping the total', async () => {
    const profile = await loadProfileFromText(read(join(INFERNO, 'flamechart/flame.svg')));
    const orc = oracle(read(join(INFERNO, 'flamechart/flames.txt')));
    expect(profile.tree.totalWeight[0]).toBe(orc.tree.totalWeight[0]);
    const stacks = (p: Profile) => {
      const out = new Map<string, number>();
      const path: string[] = [];
      for (let n = 1; n < p.tree.nodeCount; n++) {
        path.length = p.tree.depth[n] - 1;
        path.push(frameName(p.frames, p.tree.frame[n]));
        out.set(path.join(';'), p.tree.totalWeight[n]);
      }
      return out;
    };
    const got = stacks(profile);
    const want = stacks(orc);
    // Frames under inferno's minimum width are absent; every frame present has the oracle total.
    for (const [path, total] of got) expect([path, total]).toEqual([path, want.get(path)]);
    expect(got.size).toBeGreaterThan(want.size / 2);
  });
});

function dumpOf(p: Profile): string {
  const lines: string[] = [];
  for (let n = 1; n < p.tree.nodeCount; n++) lines.push(`${'  '.repeat(p.tree.depth[n] - 1)}${frameName(p.frames, p.tree.frame[n])} ${p.tree.totalWeight[n]}/${p.tree.selfWeight[n]}`);
  return lines.join('\n');
}

function checkFrameCount(profile: Profile, svg: SvgFrames): boolean {
  // Every SVG frame except "all" is one node (or merged into a same-named sibling).
  const nonRoot = svg.name.filter((n, i) => !(n === 'all' && svg.w[i] === Math.max(...svg.w))).length;
  return profile.tree.nodeCount - 1 <= nonRoot && profile.tree.nodeCount > 1;
}

describe('geometry', () => {
  const frame = (name: string, total: number, x: number, w: number, y: number) =>
    `<g>\n<title>${name} (${total} samples, 1%)</title><rect x="${x}" y="${y}" width="${w}" height="15" fill="rgb(1,2,3)"/>\n</g>`;
  const svgOf = (...frames: string[]) => `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><!-- Flame graph stack visualization -->\n${frames.join('\n')}\n</svg>\n`;

  it('flame (root at the bottom): parents by overlap, self = total − children, _[i] becomes a flag', async () => {
    const text = svgOf(
      frame('all', 10, 0, 100, 100),
      frame('main', 10, 0, 100, 84),
      frame('a', 6, 0, 60, 68),
      frame('b_[i]', 3, 60.1, 29.9, 68),
      frame('c', 2, 0.05, 20, 52),
    );
    const p = await loadProfileFromText(text);
    const lines: string[] = [];
    for (let n = 1; n < p.tree.nodeCount; n++) {
      const f = p.tree.frame[n];
      lines.push(`${'  '.repeat(p.tree.depth[n] - 1)}${frameName(p.frames, f)}${p.frames.flags[f] & FrameFlags.INLINED ? '_[i]' : ''} ${p.tree.totalWeight[n]}/${p.tree.selfWeight[n]}`);
    }
    expect(lines.join('\n')).toBe('main 10/1\n  a 6/4\n    c 2/2\n  b_[i] 3/3');
    expect(p.meta.hasInlineInfo).toBe(true);
  });

  it('a frame whose weight is past 2^53 is skipped with a warning: a few of them summed to Infinity (found by the fuzz pass)', async () => {
    const text = svgOf(frame('all', 1e308, 0, 100, 100), frame('main', 1e308, 0, 50, 84), frame('other', 1e308, 50, 50, 84), frame('ok', 4, 0, 10, 68));
    const p = await loadProfileFromText(text);
    expect(Number.isFinite(p.tree.totalWeight[0])).toBe(true);
    expect(p.meta.skippedLines).toBe(3);
    expect(p.meta.warnings[0].message).toMatch(/^frame with a weight beyond 2\^53 \("1e\+308"\): "all \(1e\+308 samples, 1%\)"$/);
  });

  it('tolerates link wrappers, single quotes, attributes in any order and frames split over lines', async () => {
    const text = [
      '<?xml version="1.0"?>',
      '<svg><!-- Flame graph stack visualization -->',
      '<g class="func_g"><a xlink:href="https://example.com/all"><title>all (7 ns, 100%)</title><rect y=\'40\' x=\'0\' width=\'70\'/></a></g>',
      '<g',
      '  class="func_g">',
      '<title>a&amp;b (7 ns, 100%)</title>',
      '<rect height="15" width="70" x="0"',
      '  y="24" />',
      '</g>',
      '</svg>',
    ].join('\r\n');
    const p = await loadProfileFromText(text);
    expect(p.meta.warnings).toEqual([]);
    expect(p.meta.weightUnit).toBe('nanoseconds');
    expect(dumpOf(p)).toBe('a&b 7/7');
  });

  it('icicle (root at the top) and no "all" frame', async () => {
    const text = svgOf(frame('x', 4, 0, 40, 20), frame('y', 6, 40, 60, 20), frame('z', 3, 40, 30, 36), frame('w', 1, 0, 10, 36));
    const p = await loadProfileFromText(text);
    expect(p.tree.totalWeight[0]).toBe(10);
    expect(childrenOf(p.tree, 0).map((n) => frameName(p.frames, p.tree.frame[n]))).toEqual(['x', 'y']);
    const y = childrenOf(p.tree, 0)[1];
    expect(childrenOf(p.tree, y).map((n) => frameName(p.frames, p.tree.frame[n]))).toEqual(['z']);
  });

  it('a frame over a gap is dropped with a warning naming its line', async () => {
    const text = svgOf(frame('all', 10, 0, 100, 100), frame('a', 5, 0, 50, 84), frame('lost', 2, 70, 20, 68), frame('under-lost', 1, 70, 10, 52));
    const p = await loadProfileFromText(text);
    expect(p.meta.warnings[0]).toMatchObject({ line: expect.any(Number), message: expect.stringMatching(/"lost" lies over no frame/) });
    expect(p.meta.warnings[0].line).toBeGreaterThan(0);
    expect(p.frames.strings).not.toContain('lost');
    expect(p.frames.strings).not.toContain('under-lost');
    expect(p.tree.totalWeight[0]).toBe(10);
  });
});

describe('detection and bad input', () => {
  it('detect()', () => {
    const head = (path: string) => read(path).slice(0, 4096);
    expect(svgImporter.detect(head('rust-toyc.svg'), false)).toBe('yes');
    expect(svgImporter.detect(head(join(INFERNO, 'inverted/inverted.svg')), false)).toBe('yes');
    expect(svgImporter.detect(head(join(INFERNO, 'empty/empty.svg')), false)).toBe('yes');
    expect(svgImporter.detect('<svg xmlns="http://www.w3.org/2000/svg" xmlns:fv="urn:flameview:svg:1">', false)).toBe('yes');
    expect(svgImporter.detect('<?xml version="1.0"?>\n', false)).toBe('need-more');
    expect(svgImporter.detect('<?xml version="1.0"?>\n<html></html>\n', true)).toBe('no');
    // An SVG without a flame graph writer's mark is not a recording.
    expect(svgImporter.detect('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>\n', true)).toBe('no');
    expect(svgImporter.detect('<svg xmlns="http://www.w3.org/2000/svg">\n', false)).toBe('need-more');
    expect(svgImporter.detect('<svg>\n' + ' '.repeat(40000), false)).toBe('no');
    expect(svgImporter.detect('<svg>\n<g >\n<title>main (1 samples, 100%)</title><rect x="0" y="0" width="1"/>\n', false)).toBe('yes');
    // Linear on hostile heads: a rescan per bracket would take minutes on this head (past the
    // test's timeout), a linear scan milliseconds. No clock is read: a loaded machine is no failure.
    expect(svgImporter.detect('<svg>\n' + '<g><title>'.repeat(30000) + ' ('.repeat(200000), false)).toBe('no');
    expect(svgImporter.detect('main;a 1\n', false)).toBe('no');
    expect(svgImporter.detect('perf 123 [000] 1.0: cpu-clock:\n', false)).toBe('no');
  });

  it('an SVG that is not a flame graph is an ImportError naming the format', async () => {
    const text = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">\n<g><rect x="1" y="2" width="3" height="4"/></g>\n</svg>\n';
    await expect(loadProfileFromText(text, { source: 'pic.svg' })).rejects.toThrow(ImportError);
    await expect(loadProfileFromText(text, { source: 'pic.svg' })).rejects.toThrow(/pic\.svg: line 1: expected .*flamegraph SVG.*, found "<\?xml/);
    // Detected as a flame graph (by its mark) but holding no frames: named by the SVG importer.
    const marked = '<?xml version="1.0"?>\n<svg xmlns:fg="http://github.com/jonhoo/inferno">\n</svg>\n';
    const empty = await loadProfileFromText(marked);
    expect(empty.meta.warnings.map((w) => w.message)).toContain('the flame graph has no frames: no samples');
    const p = svgImporter.create({ source: 'x.svg' });
    p.line('<svg>', 1);
    p.line('</svg>', 2);
    expect(() => p.finish()).toThrow(/x\.svg: expected flamegraph SVG \(frames as .*found an SVG without flame graph frames/);
  });

  it('a truncated SVG is an ImportError naming the format and the last line', async () => {
    const full = read('rust-toyc-functions.svg');
    const cut = full.slice(0, Math.floor(full.length * 0.6));
    const lines = cut.split('\n').length;
    await expect(loadProfileFromText(cut)).rejects.toThrow(new RegExp(`line ${lines}: expected flamegraph SVG ending with </svg>, found the end of the input after \\d+ frames`));
  });

  it('a title without a count is reported, not guessed', async () => {
    const text = '<?xml version="1.0"?>\n<svg><!-- flamegraph -->\n<g><title>all (5 samples, 100%)</title><rect x="0" y="20" width="100"/></g>\n<g><title>oops</title><rect x="0" y="4" width="10"/></g>\n</svg>\n';
    const p = await loadProfileFromText(text);
    expect(p.meta.skippedLines).toBe(1);
    expect(p.meta.warnings[0]).toEqual({ line: 4, message: 'frame title without a count "(N samples, P%)": "oops"' });
  });

  it('hostile text: long unmatched stretches stay bounded and fast', async () => {
    const junk = '<g>' + '<'.repeat(1000) + '\n';
    const text = '<?xml version="1.0"?>\n<svg><!-- Flame graph stack visualization -->\n' + junk.repeat(20000) + '</svg>\n';
    // 20 MB of them: quadratic work per line would pass the test's timeout; the time of a linear
    // read belongs to the benchmarks, not to a bound a loaded machine can break.
    const p = await loadProfileFromText(text);
    expect(p.tree.nodeCount).toBe(1);
  });

  it('decodeXml', () => {
    expect(decodeXml('a &amp;&lt;&gt;&quot;&apos; &#65;&#x42; &bogus; &#0;')).toBe('a &<>"\' AB &bogus; \ufffd');
  });
});
