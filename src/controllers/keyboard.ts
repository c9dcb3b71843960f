// Keyboard walking of the flame graph. ArrowUp goes to the heaviest child and ArrowDown to the
// parent (swapped in icicle, where children are below), ArrowLeft/ArrowRight to the siblings,
// Enter zooms to the selection, Escape zooms out one level; a transform's letter (f, F, m, d, c,
// C, r, R, g: frame-actions.ts) applies it to the selected frame.

import type { CallTree } from '../core/model/call-tree';
import type { NodeIndex } from '../core/model/types';
import { useStore } from '../store/store';
import { heaviestChild, nextSibling, previousSibling, currentTree } from '../store/tree-helpers';
import type { Orientation, SiblingOrder } from '../store/types';
import { frameTargetOf, runFrameShortcut } from './frame-actions';
import { mainSource } from './flame-sources';

/** The node an arrow key moves the selection to, or -1 when it cannot move. */
export function arrowTarget(tree: CallTree, orientation: Orientation, from: NodeIndex, key: string, order: SiblingOrder = 'name'): NodeIndex {
  const towardsChildren = orientation === 'flame' ? 'ArrowUp' : 'ArrowDown';
  const towardsParent = orientation === 'flame' ? 'ArrowDown' : 'ArrowUp';
  if (key === towardsChildren) return heaviestChild(tree, from);
  if (key === towardsParent) return from > 0 ? tree.parent[from] : -1;
  if (key === 'ArrowLeft') return previousSibling(tree, from, order);
  if (key === 'ArrowRight') return nextSibling(tree, from, order);
  return -1;
}

/** Whether `node` is drawn in the current zoom (inside the zoomed node, or one of its ancestors). */
function visibleInZoom(tree: CallTree, node: NodeIndex, zoomNode: NodeIndex): boolean {
  return (node >= zoomNode && node < tree.end[zoomNode]) || (node <= zoomNode && zoomNode < tree.end[node]);
}

/** Selects a node, zooming out to its parent when it is not drawn in the current zoom. */
export function revealNode(node: NodeIndex): void {
  const s = useStore.getState();
  if (!s.recordings.a.snapshot || node < 0) return;
  const tree = currentTree(s)!;
  s.select(node);
  if (!visibleInZoom(tree, node, s.panes.main.zoomNode)) mainSource.zoom(node > 0 ? tree.parent[node] : 0);
}

/** Handles a key on the focused flame graph; returns true when it was used. */
export function handleFlameKey(key: string): boolean {
  const s = useStore.getState();
  if (!s.recordings.a.snapshot) return false;
  const tree = currentTree(s)!;
  if (key.startsWith('Arrow')) {
    const from = s.panes.main.selectedNode >= 0 ? s.panes.main.selectedNode : s.panes.main.zoomNode;
    // The first arrow press selects the zoomed frame.
    const target = s.panes.main.selectedNode < 0 ? s.panes.main.zoomNode : arrowTarget(tree, s.orientation, from, key, s.siblingOrder);
    if (target < 0) return true;
    revealNode(target);
    return true;
  }
  if (key === 'Enter') {
    if (s.panes.main.selectedNode >= 0) mainSource.zoom(s.panes.main.selectedNode);
    return true;
  }
  if (key === 'Escape') {
    if (s.panes.main.zoomNode > 0) mainSource.zoom(tree.parent[s.panes.main.zoomNode]);
    else if (s.panes.main.viewport.x0 > 0 || s.panes.main.viewport.x1 < 1) mainSource.zoom(0);
    return true;
  }
  const target = key.length === 1 ? frameTargetOf(s.panes.main.selectedNode) : null;
  return target !== null && runFrameShortcut(key, target);
}
