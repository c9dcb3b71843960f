import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { clampViewport, FULL_PANE, FULL_VIEWPORT, type PaneId } from './pane';
import { useStore } from './store';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

describe('one pane state for every pane', () => {
  it('clamps a viewport into [0, 1] and turns an empty one into the whole width', () => {
    expect(clampViewport({ x0: -0.5, x1: 0.25 })).toEqual({ x0: 0, x1: 0.25 });
    expect(clampViewport({ x0: 0.5, x1: 7 })).toEqual({ x0: 0.5, x1: 1 });
    expect(clampViewport({ x0: 0.6, x1: 0.6 })).toBe(FULL_VIEWPORT);
    expect(clampViewport({ x0: 0.8, x1: 0.2 })).toBe(FULL_VIEWPORT);
  });

  it('the main graph, the comparison panes and the callers/callees panes clamp alike', () => {
    const s = () => useStore.getState();
    const snap = makeSnapshot(profileFrom('main;a 1\nmain;b 1'));
    s().finishLoading(snap, 'a', { kind: 'file' });
    const wild = { x0: -1, x1: 0.5 };
    s().setViewport(1, wild);
    s().setPane('side', { zoomNode: 1, viewport: wild });
    s().setPane('diff', { zoomNode: 1, viewport: wild });
    s().setPane('callers', { zoomNode: 1, viewport: wild });
    const panes = [s().panes.main, s().panes.side, s().panes.diff, s().panes.callers];
    for (const p of panes) expect({ zoomNode: p.zoomNode, viewport: p.viewport }).toEqual({ zoomNode: 1, viewport: { x0: 0, x1: 0.5 } });
  });

  it('a slice resets the panes whose node indices it invalidates, and only those', () => {
    const s = () => useStore.getState();
    const snap = makeSnapshot(profileFrom('main;a 1\nmain;b 1'));
    s().finishLoading(snap, 'a', { kind: 'file' });
    const all: PaneId[] = ['main', 'side', 'diff', 'callers', 'callees'];
    const zoomAll = () => all.forEach((id) => s().setPane(id, { zoomNode: 1, selectedNode: 2 }));
    const reset = () => all.filter((id) => JSON.stringify(s().panes[id]) === JSON.stringify(FULL_PANE));
    zoomAll();
    s().selectFunction('a');
    expect(reset()).toEqual(['callers', 'callees']);
    zoomAll();
    s().finishCompare(makeSnapshot(profileFrom('main;a 2')), 'b', null);
    expect(reset()).toEqual(['side', 'diff']);
    zoomAll();
    s().setCompareShape('A');
    expect(reset()).toEqual(['diff']);
    zoomAll();
    s().closeCompare();
    expect(reset()).toEqual(['side', 'diff']);
    zoomAll();
    s().finishLoading(snap, 'a', { kind: 'file' });
    expect(reset()).toEqual(['main']);
  });
});
