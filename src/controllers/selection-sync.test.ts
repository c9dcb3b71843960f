import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { startSelectionSync } from './selection-sync';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

const WEIRD = '<img src=x onerror=alert(1)>&b#c%d+e';

describe('selection sync', () => {
  it('selects the function of a frame selected in the graph while a panel is open', () => {
    useStore.getState().finishLoading(makeSnapshot(profileFrom(`main;${WEIRD};leaf 3\nmain;other 2`)), 'x', { kind: 'file' });
    const stop = startSelectionSync();
    const s = useStore.getState();
    s.select(1); // main
    expect(useStore.getState().analysis.selectedFunction).toBeNull();
    s.setAnalysisPanel('table');
    s.select(2);
    const name = useStore.getState().analysis.selectedFunction;
    expect(name === WEIRD || name === 'other').toBe(true);
    stop();
  });

  /** The first node of the shown tree whose frame is named `name`. */
  const nodeNamed = (name: string): number => {
    const s = useStore.getState();
    const tree = currentTree(s)!;
    const { frames } = s.recordings.a.snapshot!;
    for (let n = 1; n < tree.nodeCount; n++) if (frames.strings[frames.name[tree.frame[n]]] === name) return n;
    throw new Error(`no node ${name}`);
  };

  it('a panel opened after a frame was selected shows that frame\'s function, and clicking it again keeps it', () => {
    useStore.getState().finishLoading(makeSnapshot(profileFrom(`main;${WEIRD};leaf 3\nmain;other 2`)), 'x', { kind: 'file' });
    const stop = startSelectionSync();
    const s = useStore.getState();
    s.select(nodeNamed('other'));
    s.zoomTo(nodeNamed('other'));
    expect(useStore.getState().analysis.selectedFunction).toBeNull();
    s.setAnalysisPanel('asm');
    expect(useStore.getState().analysis.selectedFunction).toBe('other');
    s.select(nodeNamed('other'));
    expect(useStore.getState().analysis.selectedFunction).toBe('other');
    // Switching panels keeps following the selected frame, and a frame picked while the panel
    // was closed wins over the function shown before.
    s.setAnalysisPanel('none');
    s.select(nodeNamed(WEIRD));
    s.setAnalysisPanel('source');
    expect(useStore.getState().analysis.selectedFunction).toBe(WEIRD);
    stop();
  });

  it('with no frame selected and no function chosen, the zoomed frame\'s function; a function picked in the table stays', () => {
    useStore.getState().finishLoading(makeSnapshot(profileFrom(`main;${WEIRD};leaf 3\nmain;other 2`)), 'x', { kind: 'file' });
    const stop = startSelectionSync();
    const s = useStore.getState();
    s.setAnalysisPanel('source');
    expect(useStore.getState().analysis.selectedFunction).toBeNull(); // the whole graph: no function
    s.zoomTo(nodeNamed('leaf'));
    expect(useStore.getState().analysis.selectedFunction).toBe('leaf');
    s.pickFunction('other');
    s.zoomTo(nodeNamed(WEIRD));
    expect(useStore.getState().analysis.selectedFunction).toBe('other');
    // A link's missing fn= clears the function: the zoomed frame's again.
    s.selectFunction(null);
    expect(useStore.getState().analysis.selectedFunction).toBe(WEIRD);
    stop();
  });

  it('sorting the same column again flips the direction; a new column starts descending (names ascending)', () => {
    const s = useStore.getState();
    s.sortTable('self');
    expect(useStore.getState().analysis.sort).toEqual({ by: 'self', descending: false });
    s.sortTable('name');
    expect(useStore.getState().analysis.sort).toEqual({ by: 'name', descending: false });
    s.sortTable('total');
    expect(useStore.getState().analysis.sort).toEqual({ by: 'total', descending: true });
  });
});
