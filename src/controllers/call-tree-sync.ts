// Keeps the call tree panel's expansion in step with what the graph shows (while the panel is
// open): a new tree (transform, view, time range, reversed) starts from the initial expansion;
// a search opens the ancestors of every match; the selected frame's row is revealed (its
// ancestors expanded), so a click in the graph always has a row to scroll to. Returns the
// unsubscribe.

import { initialExpansion, mergeExpanded, revealNode, searchMaskOf } from '../core/query/call-tree-rows';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { watch } from '../store/watch';

export function startCallTreeSync(): () => void {
  let lastMatches: Uint8Array | null = null;
  const run = () => {
    const s = useStore.getState();
    const tree = currentTree(s);
    if (s.analysis.panel !== 'tree' || !tree) return;
    const fresh = s.callTree.tree !== tree;
    let expanded = fresh ? initialExpansion(tree) : s.callTree.expanded;
    const matches = s.search.matches;
    if (matches && (fresh || matches !== lastMatches)) expanded = mergeExpanded(expanded, searchMaskOf(tree, matches).open);
    lastMatches = matches;
    const node = s.panes.main.selectedNode;
    if (node > 0 && node < tree.nodeCount) expanded = revealNode(tree, expanded, node);
    s.setCallTreeExpansion(tree, expanded);
  };
  const unsub = watch((s) => ({ panel: s.analysis.panel, tree: currentTree(s), selected: s.panes.main.selectedNode, matches: s.search.matches }), run);
  run();
  return unsub;
}
