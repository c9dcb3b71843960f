// "Show this function": search for its exact name and zoom to its heaviest node, in the graphs of
// the current comparison mode (side by side: the baseline, and the comparison follows by the
// synchronised zoom; a function only B has zooms the comparison graph; differential: the shaping run).

import { zoomed } from '../store/pane';
import { useStore } from '../store/store';
import { exactPattern, heaviestNodeNamed, sideOf } from '../core/query/diff-sides';

export function showFunction(name: string): void {
  const s = useStore.getState();
  const a = s.recordings.a.snapshot;
  const b = s.recordings.b.snapshot;
  if (!a || !b) return;
  s.setSearchPattern(exactPattern(name));
  const sideA = sideOf(a, s.view);
  const sideB = sideOf(b, s.view);
  if (s.compare.mode === 'diff') {
    const node = heaviestNodeNamed(s.compare.shape === 'B' ? sideB : sideA, name);
    if (node >= 0) s.setPane('diff', { ...zoomed(node), selectedNode: node });
    return;
  }
  const inA = heaviestNodeNamed(sideA, name);
  if (inA >= 0) {
    s.zoomTo(inA);
    s.select(inA);
    return;
  }
  const inB = heaviestNodeNamed(sideB, name);
  if (inB >= 0) s.setPane('side', { ...zoomed(inB), selectedNode: inB });
}
