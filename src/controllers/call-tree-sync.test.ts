import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { currentCallTreeRows } from '../store/selectors';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { startCallTreeSync } from './call-tree-sync';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

const names = () => {
  const s = useStore.getState();
  const tree = currentTree(s)!;
  const { frames } = s.recordings.a.snapshot!;
  return [...(currentCallTreeRows(s) ?? [])].map((n) => (n === 0 ? 'all' : frames.strings[frames.name[tree.frame[n]]]));
};

describe('call tree sync', () => {
  it('opens the hot path, reveals the graph selection, expands all below, opens search matches', () => {
    const snap = makeSnapshot(profileFrom(`main;a;b;c 1\nmain;d 9`));
    useStore.getState().finishLoading(snap, 'x', { kind: 'file' });
    const stop = startCallTreeSync();
    expect(currentCallTreeRows(useStore.getState())).toBeNull(); // closed panel: nothing computed
    useStore.getState().setAnalysisPanel('tree');
    expect(names()).toEqual(['all', 'main', 'd', 'a']);
    const tree = currentTree(useStore.getState())!;
    const c = [...Array(tree.nodeCount).keys()].find((n) => tree.frame[n] >= 0 && snap.frames.strings[snap.frames.name[tree.frame[n]]] === 'c')!;
    useStore.getState().select(c); // as a click in the graph
    expect(names()).toEqual(['all', 'main', 'd', 'a', 'b', 'c']);
    useStore.getState().expandCallTreeNode(tree.parent[tree.parent[c]], false);
    expect(names()).toEqual(['all', 'main', 'd', 'a']);
    useStore.getState().expandCallTreeBelow(0);
    expect(names()).toEqual(['all', 'main', 'd', 'a', 'b', 'c']);
    useStore.getState().expandCallTreeNode(1, false);
    // A search keeps the paths through a match and opens its ancestors.
    const matches = new Uint8Array(snap.frames.count);
    matches[tree.frame[c]] = 1;
    useStore.getState().setSearchPattern('c');
    useStore.getState().searchResult('c', false, matches, 'done');
    expect(names()).toEqual(['all', 'main', 'a', 'b', 'c']);
    stop();
  });
});
