// Animated zoom (at most 250 ms, requestAnimationFrame, eased) of one pane's viewport. Each pane
// has its own: a new zoom cancels the one in flight in that pane only; the last frame lands
// exactly on the target, full width.

import type { CallTree } from '../core/model/call-tree';
import type { NodeIndex } from '../core/model/types';
import type { SiblingOrder, Viewport } from '../core/model/view-types';
import { interpolate, zoomPath } from '../render/viewport';

export const ZOOM_MS = 250;

/** The pane an animation drives. */
export interface ZoomTarget {
  /** The tree the pane shows and where it is zoomed now, or null when it shows nothing. */
  current(): { tree: CallTree; zoomNode: NodeIndex; viewport: Viewport; order?: SiblingOrder } | null;
  setViewport(zoomNode: NodeIndex, viewport: Viewport): void;
  /** The final step: zoom to the node, full width. */
  zoomTo(node: NodeIndex): void;
}

export class ZoomAnimation {
  private pending = 0;

  constructor(private readonly target: ZoomTarget) {}

  get active(): boolean {
    return this.pending !== 0;
  }

  cancel(): void {
    if (this.pending) cancelAnimationFrame(this.pending);
    this.pending = 0;
  }

  zoom(node: NodeIndex): void {
    this.cancel();
    const now = this.target.current();
    if (!now || node < 0 || node >= now.tree.nodeCount) return;
    const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (reduced || typeof requestAnimationFrame !== 'function') {
      this.target.zoomTo(node);
      return;
    }
    const { frame, from, to } = zoomPath(now.tree, now, node, now.order);
    const start = performance.now();
    const step = (t: number) => {
      const f = (t - start) / ZOOM_MS;
      if (f >= 1) {
        this.pending = 0;
        this.target.zoomTo(node);
        return;
      }
      this.target.setViewport(frame, interpolate(from, to, f));
      this.pending = requestAnimationFrame(step);
    };
    this.target.setViewport(frame, from);
    this.pending = requestAnimationFrame(step);
  }
}
