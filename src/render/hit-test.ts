// Hit testing against the last layout, so what is hit is exactly what was drawn.
// Invariant: returns the node of the rect on the row under y whose [x, x + w) contains x, or -1.

import type { NodeIndex } from '../core/model/types';
import { depthAtY, rowTop, type LayoutBuffer, type RowGeometry } from './layout';

export function hitTest(layout: LayoutBuffer, rows: RowGeometry, x: number, y: number): NodeIndex {
  const depth = depthAtY(rows, y);
  if (depth < 0) return -1;
  const { count, depth: dcol, x: xcol, w: wcol, node } = layout;
  for (let k = 0; k < count; k++) {
    if (dcol[k] === depth && x >= xcol[k] && x < xcol[k] + wcol[k]) return node[k];
  }
  return -1;
}

/** Where a node was drawn (canvas coordinates), or null when it was not (e.g. for a menu's place). */
export function nodeRect(layout: LayoutBuffer, rows: RowGeometry, target: NodeIndex): { x: number; y: number; w: number; h: number } | null {
  const { count, depth, x, w, node } = layout;
  for (let k = 0; k < count; k++) {
    if (node[k] === target) return { x: x[k], y: rowTop(rows, depth[k]), w: w[k], h: rows.rowHeight };
  }
  return null;
}
