// Animated zoom (at most 250 ms, requestAnimationFrame, eased) driving the store's viewport.
// A new zoom cancels the one in flight; the last frame lands exactly on the target, full width.

import type { NodeIndex } from '../core/model/types';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { interpolate, zoomPath } from '../render/viewport';

export const ZOOM_MS = 250;

let pending = 0;

export function isAnimating(): boolean {
  return pending !== 0;
}

export function cancelZoomAnimation(): void {
  if (pending) cancelAnimationFrame(pending);
  pending = 0;
}

export function animateZoom(target: NodeIndex): void {
  cancelZoomAnimation();
  const s = useStore.getState();
  if (!s.snapshot || target < 0) return;
  const tree = currentTree(s)!;
  if (target >= tree.nodeCount) return;
  const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (reduced || typeof requestAnimationFrame !== 'function') {
    s.zoomTo(target);
    return;
  }
  const { frame, from, to } = zoomPath(tree, { zoomNode: s.zoomNode, viewport: s.viewport }, target);
  const start = performance.now();
  const step = (now: number) => {
    const t = (now - start) / ZOOM_MS;
    if (t >= 1) {
      pending = 0;
      useStore.getState().zoomTo(target);
      return;
    }
    useStore.getState().setViewport(frame, interpolate(from, to, t));
    pending = requestAnimationFrame(step);
  };
  useStore.getState().setViewport(frame, from);
  pending = requestAnimationFrame(step);
}
