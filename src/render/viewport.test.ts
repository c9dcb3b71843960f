import { describe, expect, it } from 'vitest';
import { profileFrom } from '../core/testing/tree-dsl';
import { interpolate, pan, rangeWithin, wheelZoom, zoomPath } from './viewport';

// all 10: main 8 [a 6, b 2], other 2   (nodes: 0 all, 1 main, 2 a, 3 b, 4 other)
const { tree } = profileFrom('main;a 6\nmain;b 2\nother 2');
const close = (v: { x0: number; x1: number }) => ({ x0: +v.x0.toFixed(6), x1: +v.x1.toFixed(6) });

describe('viewport maths', () => {
  it('zooms around the cursor', () => {
    const z = wheelZoom(tree, { zoomNode: 0, viewport: { x0: 0, x1: 1 } }, 25, 100, 0.5);
    expect(close(z.viewport)).toEqual({ x0: 0.125, x1: 0.625 });
    expect(z.zoomNode).toBe(0);
  });

  it('clamps a zoom out at the root', () => {
    const z = wheelZoom(tree, { zoomNode: 0, viewport: { x0: 0.5, x1: 1 } }, 50, 100, 4);
    expect(z).toEqual({ zoomNode: 0, viewport: { x0: 0, x1: 1 } });
  });

  it('zooms out of the zoomed node into its ancestors', () => {
    // Zoomed on b (0.6..0.8 of all); doubling around its centre shows 0.5..0.9 of all.
    const z = wheelZoom(tree, { zoomNode: 3, viewport: { x0: 0, x1: 1 } }, 50, 100, 2);
    expect(z.zoomNode).toBe(0);
    expect(close(z.viewport)).toEqual({ x0: 0.5, x1: 0.9 });
  });

  it('pans and stops at the edges', () => {
    const v = { zoomNode: 0, viewport: { x0: 0.2, x1: 0.4 } };
    expect(close(pan(v, 50, 100).viewport)).toEqual({ x0: 0.1, x1: 0.3 });
    expect(close(pan(v, 500, 100).viewport)).toEqual({ x0: 0, x1: 0.2 });
    expect(close(pan(v, -5000, 100).viewport)).toEqual({ x0: 0.8, x1: 1 });
  });

  it('animates between nodes in the common ancestor', () => {
    expect(rangeWithin(tree, 3, 0)).toEqual({ x0: 0.6, x1: 0.8 });
    const path = zoomPath(tree, { zoomNode: 2, viewport: { x0: 0, x1: 1 } }, 4);
    expect(path.frame).toBe(0);
    expect(close(path.from)).toEqual({ x0: 0, x1: 0.6 });
    expect(close(path.to)).toEqual({ x0: 0.8, x1: 1 });
    expect(interpolate(path.from, path.to, 0)).toEqual(path.from);
    expect(close(interpolate(path.from, path.to, 1))).toEqual(close(path.to));
    const mid = interpolate({ x0: 0, x1: 1 }, { x0: 0.6, x1: 0.8 }, 0.5);
    expect(mid.x0).toBeGreaterThan(0);
    expect(mid.x1).toBeLessThan(1);
    expect(mid.x1 - mid.x0).toBeCloseTo(Math.sqrt(0.2), 6);
  });
});
