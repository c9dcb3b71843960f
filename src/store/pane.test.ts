import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { clampViewport, FULL_VIEWPORT } from './pane';
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
});
