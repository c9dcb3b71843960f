import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { frameName } from '../core/model/frame-table';
import { useStore } from './store';
import { treeOf } from './tree-helpers';

const initial = useStore.getState();

function nodeNamed(view: 'functions' | 'inline', path: string): number {
  const s = useStore.getState();
  const tree = treeOf(s.recordings.a.snapshot!, view);
  const names = path.split(';');
  let node = 0;
  for (const name of names) {
    let found = -1;
    for (let c = node + 1; c < tree.end[node]; c = tree.end[c]) {
      if (frameName(s.recordings.a.snapshot!.frames, tree.frame[c]) === name) found = c;
    }
    if (found < 0) throw new Error(`no ${path}`);
    node = found;
  }
  return node;
}

const inlined = makeSnapshot(
  profileFrom(`
    main;parse;lex_[i];next_[i] 3
    main;parse;expr 4
    main;emit 2
  `),
);
const plain = makeSnapshot(profileFrom('main;a 1\nmain;b 2'));

beforeEach(() => useStore.setState(initial, true));

describe('loading', () => {
  it('opens a recording with inline information in the function view', () => {
    const s = useStore.getState();
    s.startLoading('x.txt', 100);
    s.loadProgress(50, 7);
    expect(useStore.getState().recordings.a.loading).toEqual({ name: 'x.txt', bytesRead: 50, totalBytes: 100, samples: 7 });
    s.finishLoading(inlined, 'x.txt', { kind: 'file' });
    const after = useStore.getState();
    expect(after.recordings.a.loading).toBeNull();
    expect(after.view).toBe('functions');
    expect(after.recordings.a.snapshot).toBe(inlined);
    expect(after.source).toEqual({ kind: 'file' });
  });

  it('opens a recording without inline information in the function view (the same tree)', () => {
    useStore.getState().finishLoading(plain, 'p', { kind: 'paste' });
    expect(useStore.getState().view).toBe('functions');
    expect(treeOf(plain, 'functions')).toBe(plain.inline);
  });

  it('keeps the open recording when a load fails', () => {
    const s = useStore.getState();
    s.finishLoading(inlined, 'x', { kind: 'demo' });
    s.zoomTo(2);
    s.startLoading('bad', null);
    s.failLoading('line 3: expected folded stacks, found "zzz"');
    const after = useStore.getState();
    expect(after.recordings.a.snapshot).toBe(inlined);
    expect(after.panes.main.zoomNode).toBe(2);
    expect(after.recordings.a.error).toMatch(/line 3/);
    expect(after.recordings.a.loading).toBeNull();
    after.dismissError();
    expect(useStore.getState().recordings.a.error).toBeNull();
  });

  it('cancels loading and records reload requests', () => {
    const s = useStore.getState();
    s.startLoading('a', 1);
    s.cancelLoading();
    expect(useStore.getState().recordings.a.loading).toBeNull();
    s.requestReload({ event: 'cycles' });
    s.requestReload({ event: 'cpu-clock' });
    expect(useStore.getState().reloadRequest).toEqual({ seq: 2, options: { event: 'cpu-clock' } });
  });
});

describe('view toggle', () => {
  it('keeps the zoomed frame: inline frame → its function, function → same physical frame', () => {
    useStore.getState().finishLoading(inlined, 'x', { kind: 'file' });
    useStore.getState().setView('inline');
    const lex = nodeNamed('inline', 'main;parse;lex');
    useStore.getState().zoomTo(lex);
    useStore.getState().select(nodeNamed('inline', 'main;parse;lex;next'));
    useStore.getState().setView('functions');
    let s = useStore.getState();
    expect(s.view).toBe('functions');
    expect(s.panes.main.zoomNode).toBe(nodeNamed('functions', 'main;parse'));
    expect(s.panes.main.selectedNode).toBe(nodeNamed('functions', 'main;parse'));
    useStore.getState().setView('inline');
    s = useStore.getState();
    expect(s.panes.main.zoomNode).toBe(nodeNamed('inline', 'main;parse'));
  });

  it('refuses the inline view without inline information', () => {
    useStore.getState().finishLoading(plain, 'p', { kind: 'paste' });
    useStore.getState().setView('inline');
    expect(useStore.getState().view).toBe('functions');
  });
});

describe('zoom, selection, search', () => {
  it('zooms out one level and resets', () => {
    useStore.getState().finishLoading(inlined, 'x', { kind: 'file' });
    const parse = nodeNamed('functions', 'main;parse');
    useStore.getState().zoomTo(parse);
    useStore.getState().zoomOut();
    expect(useStore.getState().panes.main.zoomNode).toBe(nodeNamed('functions', 'main'));
    useStore.getState().setViewport(1, { x0: 0.2, x1: 0.4 });
    expect(useStore.getState().panes.main.viewport).toEqual({ x0: 0.2, x1: 0.4 });
    useStore.getState().resetZoom();
    expect(useStore.getState().panes.main).toMatchObject({ zoomNode: 0, viewport: { x0: 0, x1: 1 } });
  });

  it('rejects out-of-range nodes', () => {
    useStore.getState().finishLoading(plain, 'p', { kind: 'paste' });
    useStore.getState().zoomTo(999);
    useStore.getState().select(999);
    expect(useStore.getState().panes.main).toMatchObject({ zoomNode: 0, selectedNode: -1 });
  });

  it('reports an invalid pattern inline and drops stale results', () => {
    const s = useStore.getState();
    s.setSearchPattern('(a');
    // The engine's own message, shown as the search box's error.
    expect(useStore.getState().search.error).toBe('Invalid regular expression: /(a/: Unterminated group');
    expect(useStore.getState().search.status).toBe('idle');
    s.setSearchPattern('pa');
    expect(useStore.getState().search).toMatchObject({ error: null, status: 'searching' });
    s.searchResult('p', false, new Uint8Array([1]), 'done');
    expect(useStore.getState().search.matches).toBeNull();
    s.searchResult('pa', false, new Uint8Array([1]), 'done');
    expect(useStore.getState().search).toMatchObject({ status: 'done', matches: new Uint8Array([1]) });
    s.setCaseInsensitive(true);
    expect(useStore.getState().search).toMatchObject({ caseInsensitive: true, matches: null, status: 'searching' });
  });
});

describe('frame info', async () => {
  const { frameInfo } = await import('../core/query/frame-info');
  const { formatNs, formatPercent } = await import('../format');
  it('gives the figures of a frame, with the share of the zoom', () => {
    const snap = inlined;
    const tree = snap.inline;
    // main 9 of 9; parse 7; lex_[i] 3 (nodes in DFS order, siblings by name)
    const parse = 3; // 0 all, 1 main, 2 emit, 3 parse, 4 expr, 5 lex
    const lex = 5;
    const info = frameInfo(snap, 'inline', lex, parse)!;
    expect(tree.totalWeight[parse]).toBe(7);
    expect(info).toMatchObject({ name: 'lex', inlined: true, totalSamples: 3, selfSamples: 0, totalTime: null, module: null });
    expect(info.ofProfile).toBeCloseTo(3 / 9, 12);
    expect(info.ofZoom).toBeCloseTo(3 / 7, 12);
    expect(frameInfo(snap, 'inline', 0, 0)).toMatchObject({ name: 'all', ofZoom: null, ofProfile: 1 });
    expect(frameInfo(snap, 'inline', 99, 0)).toBeNull();
  });
  it("gives a function's figures over all its call sites, and picking it in the table clears the frame selection", async () => {
    const { functionInfo } = await import('../core/query/frame-info');
    const { tableFor } = await import('../core/query/table-model');
    const snap = makeSnapshot(profileFrom('main;f;g 2\nmain;h;f 3\nf 1'));
    const info = functionInfo(snap, tableFor(snap.inline, snap.frames), 'f')!;
    expect(info).toMatchObject({ name: 'f', totalSamples: 6, selfSamples: 4, allCallSites: true, ofZoom: null });
    expect(functionInfo(snap, tableFor(snap.inline, snap.frames), 'nope')).toBeNull();
    useStore.getState().finishLoading(snap, 'f', { kind: 'paste' });
    useStore.getState().select(2);
    useStore.getState().pickFunction('f');
    expect(useStore.getState().panes.main.selectedNode).toBe(-1);
    expect(useStore.getState().analysis.selectedFunction).toBe('f');
  });
  it('formats times and percentages', () => {
    expect(formatNs(1_234_567)).toBe('1.2 ms');
    expect(formatNs(2_500_000_000)).toBe('2.50 s');
    expect(formatPercent(0.1234)).toBe('12.3%');
  });
});
