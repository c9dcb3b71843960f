import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
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
