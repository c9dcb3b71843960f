import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../import/load';
import { FrameFlags } from '../model/types';
import type { Profile } from '../model/profile';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { viewTree, type ViewKind } from '../views/function-view';
import { frameRgb, css } from '../palette';
import { collapseLines } from './folded';
import { defaultView, fitLabel, renderSvg, svgChunks, svgInputOf } from './svg';
import { SVG_SCRIPT } from './svg-script';
import { escapeXml, scriptString } from './svg-xml';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../../fixtures/${name}`, import.meta.url)));

/** dumpTree plus sample columns, so both weights are compared. */
function dumpAll(p: Profile, view: ViewKind = 'inline'): string {
  const tree = viewTree(p, view);
  const samples: string[] = [];
  for (let n = 0; n < tree.nodeCount; n++) samples.push(`${tree.totalSamples[n]}/${tree.selfSamples[n]}`);
  return dumpTree(tree, p.frames) + '\n' + samples.join(' ');
}

describe('SVG export round trip through the SVG importer', () => {
  let recording: Profile;
  const load = async () => (recording ??= await loadProfileFromText(fixture('rust-toyc.perf-script.txt')));

  for (const view of ['functions', 'inline'] as const) {
    it(`rust-toyc, ${view} view, --min-width 0: the same tree comes back`, async () => {
      const p = await load();
      const svg = renderSvg(svgInputOf(p, view), { minWidth: 0 });
      const back = await loadProfileFromText(svg);
      expect(back.meta.format).toBe('svg');
      expect(back.meta.warnings).toEqual([]);
      expect(back.meta.weightUnit).toBe(p.meta.weightUnit);
      expect(back.meta.event).toBe(p.meta.event);
      const tree = viewTree(p, view);
      expect(back.tree.nodeCount).toBe(tree.nodeCount);
      expect(dumpAll(back)).toBe(dumpAll(p, view));
      // Flags come back too: the inline view keeps its inlined frames.
      expect(back.meta.hasInlineInfo).toBe(view === 'inline');
      expect(collapseLines(back)).toEqual(collapseLines(p, { view: view }));
    });
  }

  it('fractional weights and distinct sample counts round-trip exactly', async () => {
    const p = profileFrom('a;b 0.1\na;b;c 0.2\na 1e-7\nd_[i] 3');
    const back = await loadProfileFromText(renderSvg(svgInputOf(p, 'inline'), { minWidth: 0 }));
    expect(dumpAll(back)).toBe(dumpAll(p));
    const q = profileFrom('x;y 5\nx 2');
    (q.tree.selfSamples as Float64Array)[2] = 1;
    (q.tree.totalSamples as Float64Array)[2] = 1;
    (q.tree.totalSamples as Float64Array)[1] = 3;
    (q.tree.totalSamples as Float64Array)[0] = 3;
    const back2 = await loadProfileFromText(renderSvg(svgInputOf(q, 'inline'), { minWidth: 0 }));
    expect(dumpAll(back2)).toBe(dumpAll(q));
  });

  it('--min-width leaves narrow subtrees out; their weight stays in the parent', async () => {
    const p = profileFrom('main;big 990\nmain;tiny;deeper 1\nmain 9');
    const svg = renderSvg(svgInputOf(p, 'inline'), { minWidth: 2 }); // tiny is 1/1000 of 1180 px
    expect(svg).not.toContain('tiny');
    expect(svg).not.toContain('deeper');
    const back = await loadProfileFromText(svg);
    expect(dumpTree(back.tree, back.frames)).toBe('main 1000/10\n  big 990/990');
    const all = renderSvg(svgInputOf(p, 'inline'), { minWidth: 0 });
    expect(all).toContain('deeper');
  });

  it('an empty recording gives a valid SVG with a note', () => {
    const p = profileFrom('');
    const svg = renderSvg(svgInputOf(p, 'inline'));
    expect(svg).toContain('No samples');
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });

  it('streams in chunks of whole frames', async () => {
    const p = await load();
    const chunks = [...svgChunks(svgInputOf(p, 'inline'), { minWidth: 0 })];
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks.slice(1, -1)) expect(c.endsWith('</g>\n')).toBe(true);
  });
});

describe('escaping', () => {
  const XSS = '<img src=x onerror=alert(1)>';

  it('an XSS name appears only escaped and round-trips', async () => {
    const p = profileFrom(`main;${XSS} 5\nmain;a&b"c'd 3\nmain;ctl\u0001\u0000x\ty 2`);
    const svg = renderSvg(svgInputOf(p, 'inline'), { minWidth: 0, title: XSS, search: `${XSS}]]></script>` });
    expect(svg).not.toContain('<img');
    expect(svg).not.toContain('\u0000');
    expect(svg).not.toContain('\u0001');
    expect(svg).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(svg).toContain('a&amp;b&quot;c&apos;d');
    // exactly one CDATA end: the script's own
    expect(svg.split(']]>').length).toBe(2);
    const back = await loadProfileFromText(svg);
    expect(back.frames.strings).toContain(XSS);
    expect(back.frames.strings).toContain(`a&b"c'd`);
    expect(back.frames.strings).toContain('ctlx\ty');
  });

  it('the embedded script never builds markup from names', () => {
    expect(SVG_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    expect(SVG_SCRIPT).not.toContain(']]>');
  });

  it('escapeXml and scriptString', () => {
    expect(escapeXml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&apos;');
    expect(escapeXml('a\u0000b\u001fc\td\ne\ufffe\uffff')).toBe('abc\td\ne');
    expect(escapeXml('x\ud800y\udc00z\ud83d\ude00')).toBe('x\ufffdy\ufffdz\ud83d\ude00');
    expect(scriptString(']]></script>&')).toBe('"]]\\u003e\\u003c/script\\u003e\\u0026"');
  });
});

describe('look', () => {
  it('uses the palette colours, inlined frames tinted as in the app', () => {
    const p = profileFrom('main;inl_[i];leaf 5');
    const svg = renderSvg(svgInputOf(p, 'inline'), { minWidth: 0 });
    expect(svg).toContain(`fill="${css(frameRgb('main', 0))}"`);
    expect(svg).toContain(`fill="${css(frameRgb('inl', FrameFlags.INLINED))}"`);
    expect(svg).toMatch(/<title>inl \(5 samples, 100%, inlined\)<\/title>/);
  });

  it('default view: functions when the recording has inline info', () => {
    expect(defaultView(profileFrom('a;b_[i] 1').meta)).toBe('functions');
    expect(defaultView(profileFrom('a;b 1').meta)).toBe('inline');
  });

  it('labels fit like flamegraph.pl', () => {
    expect(fitLabel('abcdefghij', 5)).toBe('');
    expect(fitLabel('abcdefghij', 6 + 7.08 * 10)).toBe('abcdefghij');
    expect(fitLabel('abcdefghij', 6 + 7.08 * 5)).toBe('abc..');
  });

  it('geometry: y grows towards the root, widths proportional, children left-aligned', () => {
    const p = profileFrom('a;b 1\na;c 1\na 2');
    const svg = renderSvg(svgInputOf(p, 'inline'), { minWidth: 0, width: 1010 });
    const rects = [...svg.matchAll(/<title>(\w+) [^<]*<\/title><rect x="([\d.]+)" y="(\d+)" width="([\d.]+)"/g)].map((m) => [m[1], +m[2], +m[3], +m[4]]);
    const [all, a, b, c] = rects;
    expect(all).toEqual(['all', 10, expect.any(Number), 990]);
    expect(a[2]).toBe((all[2] as number) - 16);
    expect(b.slice(1)).toEqual([10, (a[2] as number) - 16, 247.5]);
    expect(c[1]).toBeCloseTo(257.5, 5);
  });
});
