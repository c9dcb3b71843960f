// The analysis panels (table, callers & callees, source, assembly…) all show the store's selected
// function, and this is the one place that makes it follow the main graph's frames while a panel
// is open. A panel opened after a frame was picked used to wait for the next, different, click, so
// the Source and Assembly panels opened empty on the frame the details card showed. The rule:
//   - a frame selected while a panel is open, or a panel opened while a frame is selected: that
//     frame's function;
//   - no frame selected and no function chosen (a link with a zoom and no fn=, or a fn= that is
//     not in the recording): the zoomed frame's function, also when a parked zoom lands later.
// A function picked in the table clears the frame selection (pickFunction) and so stays.
// Returns the unsubscribe.

import type { NodeIndex } from '../core/model/types';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import type { StoreState } from '../store/types';
import { watch } from '../store/watch';

/** The function name of a node of the main graph's tree; null for the root, no node or a stale index. */
function functionOf(s: StoreState, node: NodeIndex): string | null {
  const snapshot = s.recordings.a.snapshot;
  const tree = currentTree(s);
  if (!tree || !snapshot || node <= 0 || node >= tree.nodeCount) return null;
  const f = tree.frame[node];
  return f >= 0 ? snapshot.frames.strings[snapshot.frames.name[f]] : null;
}

export function startSelectionSync(): () => void {
  return watch(
    (s) => ({ node: s.panes.main.selectedNode, zoom: s.panes.main.zoomNode, panel: s.analysis.panel, fn: s.analysis.selectedFunction }),
    (now, before) => {
      if (now.panel === 'none') return;
      let followed = -1;
      if (now.node > 0) {
        // A frame newly selected, or already selected when this panel opened.
        if (now.node !== before.node || now.panel !== before.panel) followed = now.node;
      } else if (now.fn === null) followed = now.zoom;
      const s = useStore.getState();
      const name = functionOf(s, followed);
      if (name !== null) s.selectFunction(name);
    },
  );
}
