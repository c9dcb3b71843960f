// Selecting a frame in the main flame graph selects its function in the analysis panel (while a
// panel is open), so the table scrolls to its row and the callers/callees follow it. Returns the
// unsubscribe.

import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { watch } from '../store/watch';

export function startSelectionSync(): () => void {
  return watch(
    (s) => ({ node: s.panes.main.selectedNode, panel: s.analysis.panel }),
    ({ node, panel }, before) => {
      if (panel === 'none' || node === before.node || node <= 0) return;
      const s = useStore.getState();
      const tree = currentTree(s);
      if (!tree || !s.recordings.a.snapshot || node >= tree.nodeCount) return;
      const f = tree.frame[node];
      if (f >= 0) s.selectFunction(s.recordings.a.snapshot.frames.strings[s.recordings.a.snapshot.frames.name[f]]);
    },
  );
}
