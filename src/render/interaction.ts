// Mouse interaction on the flame graph: hover (into the store, drawn by the renderer), click to
// select and zoom (animated), Ctrl/⌘ + wheel (and a trackpad pinch, which browsers send as a
// Ctrl + wheel) to zoom around the cursor, drag or a sideways wheel to pan, double-click on empty
// space to reset the zoom. The plain wheel scrolls the stack vertically, as in map and profiler
// UIs. Everything it hits comes from the renderer's last layout.

import type { FlameRenderer } from './flame-renderer';
import { hitTest } from './hit-test';
import { pan, wheelZoom } from './viewport';

const DRAG_THRESHOLD = 4;

export interface InteractionOptions {
  /** A right-click on a frame (selected first); the browser's own menu shows elsewhere. */
  onContextMenu?: (node: number, clientX: number, clientY: number) => void;
}

export function attachInteraction(container: HTMLElement, canvas: HTMLCanvasElement, renderer: FlameRenderer, options: InteractionOptions = {}): () => void {
  const source = renderer.source;
  let drag: { x: number; moved: boolean; pointer: number } | null = null;

  const local = (e: MouseEvent) => {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const nodeAt = (e: MouseEvent) => {
    const p = local(e);
    return hitTest(renderer.layout, renderer.rows, p.x, p.y);
  };

  const onMove = (e: PointerEvent) => {
    if (drag) {
      const dx = e.clientX - drag.x;
      if (!drag.moved && Math.abs(dx) < DRAG_THRESHOLD) return;
      if (!drag.moved) source.cancelAnimation();
      drag.moved = true;
      drag.x = e.clientX;
      const s = source.read();
      if (!s) return;
      const next = pan({ zoomNode: s.zoomNode, viewport: s.viewport }, dx, renderer.width);
      source.setViewport(next.zoomNode, next.viewport);
      return;
    }
    const p = local(e);
    const node = hitTest(renderer.layout, renderer.rows, p.x, p.y);
    const c = container.getBoundingClientRect();
    source.hover(node, node >= 0 ? { x: e.clientX - c.left, y: e.clientY - c.top } : null);
  };
  const onLeave = () => {
    if (!drag) source.hover(-1, null);
  };
  const onDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, moved: false, pointer: e.pointerId };
    // Keep receiving moves while the drag leaves the canvas.
    canvas.setPointerCapture?.(e.pointerId);
  };
  const onUp = (e: PointerEvent) => {
    if (!drag) return;
    const wasDrag = drag.moved;
    drag = null;
    if (e.button !== 0 || wasDrag) return;
    const node = nodeAt(e);
    if (node < 0) return;
    source.select(node);
    source.zoom(node);
  };
  const onDouble = (e: MouseEvent) => {
    if (nodeAt(e) < 0) source.zoom(0);
  };
  const onContext = (e: MouseEvent) => {
    const node = options.onContextMenu ? nodeAt(e) : -1;
    if (node < 0) return;
    e.preventDefault();
    source.select(node);
    options.onContextMenu?.(node, e.clientX, e.clientY);
  };
  const pixels = (d: number, mode: number) => (mode === 1 ? d * 16 : mode === 2 ? d * 400 : d);
  const onWheel = (e: WheelEvent) => {
    if (!(e.ctrlKey || e.metaKey)) {
      // Sideways (or Shift + wheel, where the browser does not turn it sideways itself) pans;
      // anything else is left to the container's own vertical scrolling.
      const sideways = Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : e.shiftKey ? e.deltaY : 0;
      if (sideways === 0) return;
      e.preventDefault();
      source.cancelAnimation();
      const s = source.read();
      if (!s || renderer.width <= 0) return;
      const next = pan({ zoomNode: s.zoomNode, viewport: s.viewport }, -pixels(sideways, e.deltaMode), renderer.width);
      source.setViewport(next.zoomNode, next.viewport);
      return;
    }
    e.preventDefault();
    source.cancelAnimation();
    const delta = pixels(e.deltaY, e.deltaMode);
    const factor = Math.exp(Math.max(-300, Math.min(300, delta)) * 0.002);
    const s = source.read();
    if (!s || renderer.width <= 0) return;
    const next = wheelZoom(s.tree, { zoomNode: s.zoomNode, viewport: s.viewport }, local(e).x, renderer.width, factor, s.order);
    source.setViewport(next.zoomNode, next.viewport);
  };

  canvas.addEventListener('pointermove', onMove);
  canvas.addEventListener('pointerleave', onLeave);
  canvas.addEventListener('pointerdown', onDown);
  window.addEventListener('pointerup', onUp);
  canvas.addEventListener('dblclick', onDouble);
  canvas.addEventListener('contextmenu', onContext);
  container.addEventListener('wheel', onWheel, { passive: false });
  return () => {
    canvas.removeEventListener('pointermove', onMove);
    canvas.removeEventListener('pointerleave', onLeave);
    canvas.removeEventListener('pointerdown', onDown);
    window.removeEventListener('pointerup', onUp);
    canvas.removeEventListener('dblclick', onDouble);
    canvas.removeEventListener('contextmenu', onContext);
    container.removeEventListener('wheel', onWheel);
  };
}
