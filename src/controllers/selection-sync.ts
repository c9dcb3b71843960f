// Selecting a frame in the main flame graph selects its function in the analysis panel (while a
// panel is open), so the table scrolls to its row and the callers/callees follow it. Returns the
// unsubscribe.

import { shallow } from 'zustand/shallow';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';

export function startSelectionSync(): () => void {
  return useStore.subscribe(
    (s) => [s.selectedNode, s.analysis.panel] as const,
    ([node, panel], [prevNode]) => {
      if (panel === 'none' || node === prevNode || node <= 0) return;
      const s = useStore.getState();
      const tree = currentTree(s);
      if (!tree || !s.snapshot || node >= tree.nodeCount) return;
      const f = tree.frame[node];
      if (f >= 0) s.selectFunction(s.snapshot.frames.strings[s.snapshot.frames.name[f]]);
    },
    { equalityFn: shallow },
  );
}
