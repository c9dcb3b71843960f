// A zoom path from a link that must wait for the derived tree: the link's transforms (or reversed
// switch) are applied before its zoom (url-state order), but the derived tree arrives later from
// the analysis worker, and the path names frames of that tree. The zoom codec parks the path here;
// the derive controller resolves it when the tree arrives. While parked, the URL keeps the path.

import type { PathSegment } from './zoom-path';

interface Pending {
  path: PathSegment[];
  /** Resolves the path against the then-current tree; `notify` reports a frame not found. */
  run(notify: (message: string) => void): void;
}

let pending: Pending | null = null;

export function parkZoom(p: Pending | null): void {
  pending = p;
}

export function parkedZoomPath(): PathSegment[] | null {
  return pending?.path ?? null;
}

/** Takes the parked zoom (at most once). */
export function takeParkedZoom(): Pending | null {
  const p = pending;
  pending = null;
  return p;
}
