// A test and console hook: where a named frame is drawn in a flame graph, so the e2e tests can
// hover it without guessing coordinates.
//
//   window.flameviewFrames.rect('Differential flame graph', 'toyc::optimize_module')
//     → { x, y, width, height } in viewport CSS px of the widest drawn rectangle of that name, or
//       null (also when that rectangle's row is under a cut-off cue).
//   window.flameviewFrames.reveal('Baseline flame graph', 'toyc::compile_module')
//     → scrolls the graph so the row of the heaviest node of that name is in view (true), or false.
//   window.flameviewFrames.drawn('Flame graph')
//     → how many rectangles the last layout emitted (what a redraw draws), or -1: the tests check
//       culling by this count, not by a clock.
//
// Graphs register their renderer under their accessible name while mounted.

import type { FlameRenderer } from './flame-renderer';
import { ROW_HEIGHT, rowTop } from './layout';

const renderers = new Map<string, { renderer: FlameRenderer; canvas: () => HTMLCanvasElement | null }>();

export function registerRenderer(label: string, renderer: FlameRenderer | null, canvas: () => HTMLCanvasElement | null): void {
  if (renderer) renderers.set(label, { renderer, canvas });
  else renderers.delete(label);
}

function rect(label: string, name: string): { x: number; y: number; width: number; height: number } | null {
  const entry = renderers.get(label);
  const s = entry?.renderer.source.read();
  const canvas = entry?.canvas();
  if (!entry || !s || !canvas) return null;
  const L = entry.renderer.layout;
  const box = canvas.getBoundingClientRect();
  let best = -1;
  const rows = entry.renderer.rows;
  for (let k = 0; k < L.count; k++) {
    const f = s.tree.frame[L.node[k]];
    if (f < 0 || s.frames.strings[s.frames.name[f]] !== name) continue;
    if (best < 0 || L.w[k] > L.w[best]) best = k;
  }
  if (best < 0) return null;
  // A row under a cut-off cue is not in view (reveal scrolls to it).
  const y = rowTop(rows, L.depth[best]);
  if (y < entry.renderer.cueTop || y + ROW_HEIGHT > rows.viewHeight - entry.renderer.cueBottom) return null;
  const x0 = Math.max(0, L.x[best]);
  const x1 = Math.min(entry.renderer.width, L.x[best] + L.w[best]);
  return { x: box.left + x0, y: box.top + rowTop(entry.renderer.rows, L.depth[best]), width: x1 - x0, height: ROW_HEIGHT - 1 };
}

function reveal(label: string, name: string): boolean {
  const entry = renderers.get(label);
  const s = entry?.renderer.source.read();
  const container = entry?.canvas()?.parentElement;
  if (!entry || !s || !container) return false;
  let best = -1;
  for (let n = 1; n < s.tree.nodeCount; n++) {
    const f = s.tree.frame[n];
    if (s.frames.strings[s.frames.name[f]] === name && (best < 0 || s.tree.totalWeight[n] > s.tree.totalWeight[best])) best = n;
  }
  if (best < 0) return false;
  const rows = entry.renderer.rows;
  const top = rowTop({ ...rows, scrollTop: 0 }, s.tree.depth[best]);
  container.scrollTop = Math.max(0, top - rows.viewHeight / 2);
  container.dispatchEvent(new Event('scroll'));
  return true;
}

function drawn(label: string): number {
  return renderers.get(label)?.renderer.layout.count ?? -1;
}

if (typeof window !== 'undefined') (window as unknown as { flameviewFrames: unknown }).flameviewFrames = { rect, reveal, drawn };
