import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { frameName } from '../core/model/frame-table';
import { makeSnapshot, type ProfileSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { comparisonSource, diffSource, startCompareSync } from './flame-sources';
import { shownColours, startCompareResults, type CompareBackend } from './compare-results';
import { CompareSession } from '../core/session/compare-session';
import { recordingWire } from '../core/session/compare-protocol';
import { showFunction } from './show-function';
import { SearchClient } from './search-client';
import { startSearchController } from './search-controller';
import { InlineSearchWorker } from '../core/testing/inline-search-worker';
import { useStore } from '../store/store';
import { treeOf } from '../store/tree-helpers';

const initial = useStore.getState();

function nodeAt(snapshot: ProfileSnapshot, path: string, view: 'functions' | 'inline' = 'inline'): number {
  const tree = treeOf(snapshot, view);
  let node = 0;
  for (const name of path.split(';')) {
    let found = -1;
    for (let c = node + 1; c < tree.end[node]; c = tree.end[c]) if (frameName(snapshot.frames, tree.frame[c]) === name) found = c;
    if (found < 0) throw new Error(`no ${path}`);
    node = found;
  }
  return node;
}

// A: main → parse (4) / emit (4); B: main → parse (4) / optimize (8) / emit (2) — optimize is new.
const A = makeSnapshot(profileFrom('main;parse;lex 4\nmain;emit 4'));
const B = makeSnapshot(profileFrom('main;parse;lex 4\nmain;optimize;fold 8\nmain;emit 2'));

function open(): void {
  const s = useStore.getState();
  s.finishLoading(A, 'a.txt', { kind: 'file' });
  s.setView('inline');
  s.finishCompare(B, 'b.txt', 'b.txt');
}

beforeEach(() => useStore.setState(initial, true));

/** The compare worker's session in-process: what crosses is the same wire. */
function inlineBackend(): CompareBackend {
  const session = new CompareSession();
  return {
    setRecording: (slot, id, snapshot) => session.setRecording(slot, id, recordingWire(snapshot).wire),
    colours: async (...args) => session.colours(...args),
    figures: async (...args) => session.figures(...args),
    changeTable: async (...args) => session.changeTable(...args),
  };
}

/** The differential graph once the compare session has answered (it is busy and grey until then). */
async function diffRead() {
  await expect.poll(() => shownColours(useStore.getState())).not.toBeNull();
  return diffSource.read()!;
}

describe('synchronised zoom (side by side)', () => {
  it('zooming the baseline zooms the comparison to the same path', () => {
    open();
    const stop = startCompareSync();
    useStore.getState().zoomTo(nodeAt(A, 'main;parse'));
    expect(useStore.getState().panes.side.zoomNode).toBe(nodeAt(B, 'main;parse'));
    expect(useStore.getState().compare.syncNotice).toBeNull();
    stop();
  });

  it('zooming the comparison to a path the baseline lacks zooms the baseline to the nearest caller and says so', () => {
    open();
    const stop = startCompareSync();
    comparisonSource.zoom(nodeAt(B, 'main;optimize;fold'));
    const s = useStore.getState();
    expect(s.panes.side.zoomNode).toBe(nodeAt(B, 'main;optimize;fold'));
    expect(s.panes.main.zoomNode).toBe(nodeAt(A, 'main'));
    expect(s.compare.syncNotice).toMatch(/fold .*not in the baseline.*main/);
    // The echo of that zoom does not pull the comparison back to "main".
    expect(s.panes.side.zoomNode).toBe(nodeAt(B, 'main;optimize;fold'));
    stop();
  });
});

describe('synchronised zoom (differential ↔ side by side)', () => {
  it('a zoom of the differential graph is the pair\'s zoom, and the pair\'s zoom is where the differential graph opens', () => {
    open();
    const stop = startCompareSync();
    const s = () => useStore.getState();
    s().setCompareMode('diff');
    s().setPane('diff', { zoomNode: nodeAt(B, 'main;parse;lex') });
    expect(s().panes.main.zoomNode).toBe(nodeAt(A, 'main;parse;lex'));
    // A path only B has: the baseline goes to its nearest caller.
    s().setPane('diff', { zoomNode: nodeAt(B, 'main;optimize;fold') });
    expect(s().panes.main.zoomNode).toBe(nodeAt(A, 'main'));
    s().setCompareMode('side');
    expect(s().panes.side.zoomNode).toBe(nodeAt(B, 'main'));
    s().zoomTo(nodeAt(A, 'main;emit'));
    s().setCompareMode('diff');
    expect(s().panes.diff.zoomNode).toBe(nodeAt(B, 'main;emit'));
    // Shaped by the baseline: the same node of A's tree.
    s().setCompareShape('A');
    expect(s().panes.diff.zoomNode).toBe(nodeAt(A, 'main;emit'));
    expect(s().panes.main.zoomNode).toBe(nodeAt(A, 'main;emit'));
    stop();
  });
});

describe('differential source', () => {
  let stopResults = () => {};
  beforeEach(() => {
    stopResults = startCompareResults(inlineBackend());
    return () => stopResults();
  });

  it('is busy, and grey, until the compare session has sent the colours', () => {
    open();
    useStore.getState().setCompareMode('diff');
    const st = diffSource.read()!;
    expect(st.busy).toBe(true);
    expect(new Set(st.nodeColours!.ids).size).toBe(1);
  });

  it('colours by change and marks the frames only the shaping run has', async () => {
    open();
    useStore.getState().setCompareMode('diff');
    const st = await diffRead();
    expect(st.tree).toBe(treeOf(B, 'inline'));
    const colours = st.nodeColours!;
    const fold = nodeAt(B, 'main;optimize;fold');
    const emit = nodeAt(B, 'main;emit');
    const lex = nodeAt(B, 'main;parse;lex');
    expect(colours.marked![fold]).toBe(1);
    expect(colours.marked![emit]).toBe(0);
    // optimize grew from 0 to 8/14 of the total (red), emit shrank from 50 % to 2/14 (blue).
    expect(colours.ids[fold]).toBeGreaterThan(20);
    expect(colours.ids[emit]).toBeLessThan(20);
    // parse;lex: 50 % → 28.6 %: shrank too, less than emit.
    expect(colours.ids[lex]).toBeGreaterThan(colours.ids[emit]);
    useStore.getState().setCompareShape('A');
    expect((await diffRead()).tree).toBe(treeOf(A, 'inline'));
  });

  it('a search fades the frames that do not match and keeps the colour of change of those that do', async () => {
    open();
    useStore.getState().setCompareMode('diff');
    const plain = (await diffRead()).nodeColours!;
    const fold = nodeAt(B, 'main;optimize;fold');
    const emit = nodeAt(B, 'main;emit');
    const stopSearch = startSearchController(new SearchClient(() => new InlineSearchWorker()), new SearchClient(() => new InlineSearchWorker()));
    onTestFinished(stopSearch);
    useStore.getState().setSearchPattern('fold|optimize');
    // B's matches come from its own search worker (never the page's thread).
    await expect.poll(() => useStore.getState().search.compare.status).toBe('done');
    const st = diffSource.read()!;
    const dimmed = st.nodeColours!;
    const half = plain.css.length;
    expect(st.matches).not.toBeNull();
    expect(dimmed.css.length).toBe(2 * half);
    expect(dimmed.ids[fold]).toBe(plain.ids[fold]);
    expect(dimmed.ids[nodeAt(B, 'main;optimize')]).toBe(plain.ids[nodeAt(B, 'main;optimize')]);
    expect(dimmed.ids[emit]).toBe(plain.ids[emit] + half);
    expect(dimmed.ids[0]).toBe(plain.ids[0]);
    expect(dimmed.marked).toBe(plain.marked);
    // Same inputs, same object (the renderer redraws without allocating).
    expect(diffSource.read()!.nodeColours).toBe(dimmed);
    // Shaped by the baseline, the matches are the search slice's own (A's frames).
    useStore.getState().setCompareShape('A');
    await expect.poll(() => useStore.getState().search.status).toBe('done');
    expect((await diffRead()).matches).toBe(useStore.getState().search.matches);
    useStore.getState().setSearchPattern('');
    expect(diffSource.read()!.nodeColours!.css.length).toBe(half);
  });

  it('a table row searches for the exact name and zooms the differential graph to it', () => {
    open();
    useStore.getState().setCompareMode('diff');
    showFunction('optimize');
    const s = useStore.getState();
    expect(s.search.pattern).toBe('^optimize$');
    expect(s.panes.diff.zoomNode).toBe(nodeAt(B, 'main;optimize'));
  });
});
