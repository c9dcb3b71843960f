// The process/thread picker: the root's children are the recording's processes (perf script's
// root frame is the command name, or comm-PID / comm-PID/TID). Shown when there are several;
// picking one zooms to it, "All" zooms out.

import { frameName } from '../core/model/frame-table';
import { mainSource } from '../controllers/flame-sources';
import { useStore } from '../store/store';
import { childrenOf } from '../core/model/call-tree';
import { currentTree } from '../store/tree-helpers';

const MAX_OPTIONS = 200;

export function ProcessPicker() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const tree = useStore(currentTree);
  const zoomNode = useStore((s) => s.panes.main.zoomNode);
  // Bottom-up, the root's children are leaf functions, not processes.
  const reversed = useStore((s) => s.reversed);
  if (!snapshot || !tree || reversed || snapshot.meta.format !== 'perf-script') return null;
  const roots = childrenOf(tree, 0);
  if (roots.length < 2) return null;
  const shown = roots.sort((a, b) => tree.totalWeight[b] - tree.totalWeight[a]).slice(0, MAX_OPTIONS);
  const total = tree.totalWeight[0];
  let current = zoomNode;
  while (current > 0 && tree.parent[current] !== 0) current = tree.parent[current];
  return (
    <label className="picker">
      Process
      <select value={current} onChange={(e) => mainSource.zoom(Number(e.target.value))}>
        <option value={0}>All ({roots.length})</option>
        {shown.map((n) => (
          <option key={n} value={n}>
            {frameName(snapshot.frames, tree.frame[n])} ({((tree.totalWeight[n] / total) * 100).toFixed(1)}%)
          </option>
        ))}
      </select>
    </label>
  );
}
