import { describe, expect, it } from 'vitest';
import { frameName } from '../core/model/frame-table';
import { profileFrom } from '../core/testing/tree-dsl';
import { hitTest } from './hit-test';
import { CUE_MIN, contentHeight, deepestUnder, depthAtY, edgeCues, layoutFrames, rowTop, visibleDepths, type LayoutInput, type RowGeometry } from './layout';

const profile = profileFrom(`
  main;a;deep 6
  main;b;tiny 2
  other 2
`);
const tree = profile.tree;

function rects(input: Partial<LayoutInput>) {
  const out = layoutFrames({ tree, zoomNode: 0, viewport: { x0: 0, x1: 1 }, width: 100, minWidth: 0, minDepth: 0, maxDepth: 99, ...input });
  const list: string[] = [];
  for (let k = 0; k < out.count; k++) {
    const n = out.node[k];
    const name = n === 0 ? 'all' : frameName(profile.frames, tree.frame[n]);
    list.push(`${name}@${out.depth[k]} ${+out.x[k].toFixed(3)}+${+out.w[k].toFixed(3)}${out.ancestor[k] ? ' anc' : ''}`);
  }
  return list;
}

const node = (path: string) => {
  let n = 0;
  for (const name of path.split(';')) {
    let found = -1;
    for (let c = n + 1; c < tree.end[n]; c = tree.end[c]) if (frameName(profile.frames, tree.frame[c]) === name) found = c;
    n = found;
  }
  return n;
};

describe('layoutFrames', () => {
  it('draws siblings heaviest first with order=heavy, the widths and culling unchanged', () => {
    const p = profileFrom('main;a 1\nmain;b 3\nmain;c;leaf 2\nz 4');
    const draw = (order: 'name' | 'heavy', zoomNode = 0, minWidth = 0) => {
      const out = layoutFrames({ tree: p.tree, zoomNode, viewport: { x0: 0, x1: 1 }, width: 100, minWidth, minDepth: 0, maxDepth: 99, order });
      return Array.from({ length: out.count }, (_, k) => `${out.node[k] ? frameName(p.frames, p.tree.frame[out.node[k]]) : 'all'} ${out.x[k]}+${out.w[k]}`);
    };
    expect(draw('name')).toEqual(['all 0+100', 'main 0+60', 'a 0+10', 'b 10+30', 'c 40+20', 'leaf 40+20', 'z 60+40']);
    expect(draw('heavy')).toEqual(['all 0+100', 'main 0+60', 'b 0+30', 'c 30+20', 'leaf 30+20', 'a 50+10', 'z 60+40']);
    // Zoomed into main (node 1): its subtree only, in the same order; narrow frames are skipped with their subtree.
    expect(draw('heavy', 1)).toEqual(['all 0+100', 'main 0+100', 'b 0+50', 'c 50+33.333333333333336', 'leaf 50+33.333333333333336', 'a 83.33333333333334+16.666666666666668']);
    expect(draw('heavy', 0, 25)).toEqual(['all 0+100', 'main 0+60', 'b 0+30', 'z 60+40']);
  });

  it('lays out the whole tree left-aligned by weight', () => {
    expect(rects({})).toEqual([
      'all@0 0+100',
      'main@1 0+80',
      'a@2 0+60',
      'deep@3 0+60',
      'b@2 60+20',
      'tiny@3 60+20',
      'other@1 80+20',
    ]);
  });

  it('draws the zoomed node full width with its ancestors below', () => {
    expect(rects({ zoomNode: node('main;b') })).toEqual(['main@1 0+100 anc', 'all@0 0+100 anc', 'b@2 0+100', 'tiny@3 0+100']);
  });

  it('applies the viewport and skips what is out of view', () => {
    // Viewport [0.5, 1] of the root: 5 of 10 units over 100 px, 20 px per unit.
    expect(rects({ viewport: { x0: 0.5, x1: 1 } })).toEqual([
      'all@0 -100+200',
      'main@1 -100+160',
      'a@2 -100+120',
      'deep@3 -100+120',
      'b@2 20+40',
      'tiny@3 20+40',
      'other@1 60+40',
    ]);
    expect(rects({ viewport: { x0: 0, x1: 0.3 } })).toEqual(['all@0 0+333.333', 'main@1 0+266.667', 'a@2 0+200', 'deep@3 0+200']);
  });

  it('skips frames narrower than the minimum with their subtree, keeping their weight', () => {
    expect(rects({ minWidth: 25 })).toEqual(['all@0 0+100', 'main@1 0+80', 'a@2 0+60', 'deep@3 0+60']);
  });

  it('emits only the visible depths', () => {
    expect(rects({ minDepth: 2, maxDepth: 2 })).toEqual(['a@2 0+60', 'b@2 60+20']);
  });

  it('handles a 20,000-deep stack without recursion', () => {
    const deep = profileFrom(Array.from({ length: 20000 }, (_, i) => `f${i}`).join(';') + ' 1');
    const out = layoutFrames({ tree: deep.tree, zoomNode: 0, viewport: { x0: 0, x1: 1 }, width: 500, minWidth: 0.5, minDepth: 0, maxDepth: 1e9 });
    expect(out.count).toBe(20001);
  });
});

describe('rows and hit testing', () => {
  const flame: RowGeometry = { orientation: 'flame', rows: 4, viewHeight: 100, scrollTop: 0, rowHeight: 17 };
  const icicle: RowGeometry = { ...flame, orientation: 'icicle' };

  it('puts the root at the bottom (flame) or the top (icicle)', () => {
    expect(contentHeight(flame)).toBe(100);
    expect(rowTop(flame, 0)).toBe(83);
    expect(rowTop(flame, 3)).toBe(32);
    expect(rowTop(icicle, 0)).toBe(0);
    expect(depthAtY(flame, 99)).toBe(0);
    expect(depthAtY(flame, 83)).toBe(0);
    expect(depthAtY(flame, 82)).toBe(1);
    expect(depthAtY(flame, 10)).toBe(-1);
    expect(depthAtY(icicle, 16)).toBe(0);
    expect(depthAtY(icicle, 17)).toBe(1);
    expect(depthAtY(icicle, 90)).toBe(-1);
  });

  it('computes the visible depth range of a scrolled tall tree', () => {
    const tall: RowGeometry = { orientation: 'icicle', rows: 100, viewHeight: 170, scrollTop: 170, rowHeight: 17 };
    expect(visibleDepths(tall)).toEqual({ minDepth: 10, maxDepth: 20 });
    const tallFlame: RowGeometry = { ...tall, orientation: 'flame', scrollTop: 0 };
    // Content 1702 px: depth 99 at y 2..19, depth 90 at y 155..172 (partly visible).
    expect(visibleDepths(tallFlame)).toEqual({ minDepth: 90, maxDepth: 99 });
  });

  it('hits what was drawn', () => {
    const out = layoutFrames({ tree, zoomNode: 0, viewport: { x0: 0, x1: 1 }, width: 100, minWidth: 25, minDepth: 0, maxDepth: 99 });
    const y = (d: number) => rowTop(flame, d) + 5;
    expect(hitTest(out, flame, 10, y(0))).toBe(0);
    expect(hitTest(out, flame, 79.9, y(1))).toBe(node('main'));
    expect(hitTest(out, flame, 10, y(2))).toBe(node('main;a'));
    expect(hitTest(out, flame, 65, y(2))).toBe(-1); // b is too narrow: skipped, not hit
    expect(hitTest(out, flame, 90, y(1))).toBe(-1);
    expect(hitTest(out, flame, 10, 5)).toBe(-1);
    const ici = layoutFrames({ tree, zoomNode: 0, viewport: { x0: 0, x1: 1 }, width: 100, minWidth: 0, minDepth: 0, maxDepth: 99 });
    expect(hitTest(ici, icicle, 90, 20)).toBe(node('other'));
  });
});

describe('edgeCues', () => {
  const g = (over: Partial<RowGeometry>): RowGeometry => ({ orientation: 'flame', rows: 48, viewHeight: 300, scrollTop: 0, rowHeight: 17, ...over });

  it('shows no cue when every row fits', () => {
    expect(edgeCues(g({ rows: 10 }))).toEqual({ top: { count: 0, size: 0 }, bottom: { count: 0, size: 0 } });
  });

  it('a flame graph scrolled to its root cuts the deepest levels at the top, and covers the half row', () => {
    const rows = g({});
    rows.scrollTop = contentHeight(rows) - rows.viewHeight;
    const { top, bottom } = edgeCues(rows);
    expect(bottom.count).toBe(0);
    // 300 px hold 17 whole rows (289 px) and 11 px of an 18th: the cue covers it, and the
    // 18th row's top is the first whole row below the cue.
    const whole = Math.floor((rows.viewHeight - top.size) / 17);
    expect(top.count).toBe(48 - whole);
    expect(top.size).toBeGreaterThanOrEqual(CUE_MIN);
    expect(top.size).toBeLessThan(CUE_MIN + 17);
    // The rows below the cue are whole: the first one starts at or below it.
    for (let d = 0; d < 48 - top.count; d++) expect(rowTop(rows, d)).toBeGreaterThanOrEqual(top.size);
  });

  it('an icicle cuts at the bottom; scrolled halfway, at both edges', () => {
    const ice = g({ orientation: 'icicle' });
    const { top, bottom } = edgeCues(ice);
    expect(top.count).toBe(0);
    expect(bottom.count).toBeGreaterThan(48 - 18);
    const mid = edgeCues({ ...ice, scrollTop: 200 });
    expect(mid.top.count).toBeGreaterThanOrEqual(Math.ceil(200 / 17));
    expect(mid.bottom.count).toBeGreaterThan(0);
    expect(mid.top.count + mid.bottom.count).toBeLessThanOrEqual(48);
  });
});

describe('folded ancestors', () => {
  // Zoomed on a node at depth 3 whose subtree reaches depth 6: rows are the folded row and 4 more.
  const folded: RowGeometry = { orientation: 'flame', rows: 5, fold: 3, viewHeight: 170, scrollTop: 0, rowHeight: 17 };

  it('puts every ancestor on row 0 and the zoomed node on the row after it', () => {
    for (const d of [0, 1, 2]) expect(rowTop(folded, d)).toBe(153);
    expect(rowTop(folded, 3)).toBe(136);
    expect(rowTop(folded, 6)).toBe(85);
    expect(rowTop({ ...folded, orientation: 'icicle' }, 3)).toBe(17);
  });

  it('hits nothing on the folded row and maps the other rows back to depths', () => {
    expect(depthAtY(folded, 160)).toBe(-1);
    expect(depthAtY(folded, 140)).toBe(3);
    expect(depthAtY(folded, 90)).toBe(6);
    expect(depthAtY(folded, 60)).toBe(-1);
  });

  it('leaves the folded depths out of the visible range, so no ancestor is laid out', () => {
    expect(visibleDepths(folded)).toEqual({ minDepth: 3, maxDepth: 6 });
    const layout = layoutFrames({ tree, zoomNode: node('main;b'), viewport: { x0: 0, x1: 1 }, width: 100, minWidth: 0, ...visibleDepths({ ...folded, fold: 2, rows: 3 }) });
    expect(Array.from(layout.ancestor.subarray(0, layout.count))).toEqual([0, 0]);
  });

  it('counts the folded row as its levels in a cue', () => {
    const tall: RowGeometry = { ...folded, rows: 30, fold: 12, viewHeight: 170, scrollTop: 0 };
    // Scrolled up from the root: the bottom cue covers the folded row, worth 12 levels.
    const scrolled = edgeCues({ ...tall, scrollTop: 0 });
    const rowsBelow = scrolled.bottom.count;
    expect(rowsBelow).toBeGreaterThanOrEqual(12 + 1);
    const atRoot = edgeCues({ ...tall, scrollTop: contentHeight(tall) - 170 });
    expect(atRoot.bottom.count).toBe(0);
    expect(atRoot.top.count).toBeGreaterThan(0);
  });

  it('knows how deep a subtree goes', () => {
    expect(deepestUnder(tree, 0)).toBe(3);
    expect(deepestUnder(tree, node('other'))).toBe(1);
    expect(deepestUnder(tree, node('main;b'))).toBe(3);
  });
});
