// The flame graph: a focusable container holding the canvas. The renderer and the mouse
// interaction are plain classes attached once; this component never re-renders on zoom, pan,
// hover or search.

import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { FlameRenderer } from '../render/flame-renderer';
import { zoomOutOf, type FlameSource } from '../render/flame-source';
import { mainSource } from '../controllers/flame-sources';
import { attachInteraction } from '../render/interaction';
import { handleFlameKey } from '../controllers/keyboard';
import { frameTargetOf } from '../controllers/frame-actions';
import { nodeRect } from '../render/hit-test';
import { useStore } from '../store/store';
import { isMenuKey, useFrameMenu } from './FrameMenu';
import { Tooltip } from './Tooltip';

export interface FlameGraphProps {
  /** Accessible name; "Flame graph" for the main graph. */
  label?: string;
  /** Another source than the store's main graph (the comparison views); keys are then not handled. */
  source?: FlameSource;
  /** Replaces the main tooltip. */
  tooltip?: ReactNode;
  /** Called with the renderer once it exists (and null when it goes), e.g. for a test hook. */
  onRenderer?: (renderer: FlameRenderer | null) => void;
}

export function FlameGraph({ label = 'Flame graph', source, tooltip, onRenderer }: FlameGraphProps = {}) {
  const uid = useId();
  const helpId = source ? `flame-graph-help${uid.replace(/[^a-zA-Z0-9_-]/g, '')}` : 'flame-graph-help';
  const container = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const spacer = useRef<HTMLDivElement>(null);
  const cueTop = useRef<HTMLButtonElement>(null);
  const cueBottom = useRef<HTMLButtonElement>(null);
  const rendererRef = useRef<FlameRenderer | null>(null);
  const menu = useFrameMenu();
  const openMenu = useRef(menu.open);
  openMenu.current = menu.open;
  const ancestors = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const graph = container.current;
    if (!graph || !canvas.current || !spacer.current || !cueTop.current || !cueBottom.current || !ancestors.current) return;
    const cues = { top: cueTop.current, bottom: cueBottom.current, ancestors: ancestors.current };
    const renderer = new FlameRenderer(graph, canvas.current, spacer.current, source ?? mainSource, cues);
    cues.top.onclick = () => renderer.reveal('top');
    cues.bottom.onclick = () => renderer.reveal('bottom');
    const box = graph;
    // The context menu belongs to the main graph (the comparison graphs' frames are not the
    // transforms' tree).
    const onContextMenu = source
      ? undefined
      : (node: number, x: number, y: number) => {
          const target = frameTargetOf(node);
          if (target) openMenu.current(target, { x, y, returnFocus: box });
        };
    // The button goes away with the fold: the graph keeps the focus (its keys keep working).
    cues.ancestors.onclick = () => {
      renderer.unfoldAncestors();
      graph.focus();
    };
    const detach = attachInteraction(graph, canvas.current, renderer, { onContextMenu });
    rendererRef.current = renderer;
    onRenderer?.(renderer);
    return () => {
      rendererRef.current = null;
      onRenderer?.(null);
      detach();
      renderer.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one renderer per mounted graph and source
  }, [source]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (!source && isMenuKey(e)) {
      e.preventDefault();
      keyboardMenu();
      return;
    }
    // Every graph zooms out with Escape; the main graph also walks with the arrows.
    if (source ? e.key === 'Escape' && zoomOutOf(source) : handleFlameKey(e.key)) e.preventDefault();
  };

  // Shift+F10 / the menu key: the selected frame's menu, under the frame where it is drawn.
  const keyboardMenu = () => {
    const target = frameTargetOf(useStore.getState().panes.main.selectedNode);
    const box = container.current;
    const r = rendererRef.current;
    if (!target || !box || !r || !canvas.current) return;
    const c = canvas.current.getBoundingClientRect();
    const at = nodeRect(r.layout, r.rows, target.node as number);
    const x = at ? c.left + Math.max(0, at.x) + 8 : c.left + 16;
    const y = at ? c.top + Math.min(Math.max(0, at.y + at.h), c.height) : c.top + 16;
    menu.open(target, { x, y, returnFocus: box });
  };

  return (
    <div className="flame-wrap">
      <div
        ref={container}
        className="flame-graph"
        role="application"
        aria-label={label}
        aria-roledescription="flame graph"
        aria-describedby={helpId}
        aria-busy="true"
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <canvas ref={canvas} className="flame-canvas" aria-hidden="true" />
        <div ref={spacer} className="flame-spacer" />
      </div>
      {/* Filled in by the renderer: how many levels are cut off at each edge. */}
      <button ref={cueTop} type="button" className="flame-cue flame-cue-top" hidden />
      <button ref={cueBottom} type="button" className="flame-cue flame-cue-bottom" hidden />
      {/* Filled in by the renderer: the zoomed frame's ancestors folded into one row. */}
      <button ref={ancestors} type="button" className="flame-ancestors" aria-expanded="false" title="Show the zoomed frame's ancestors" hidden />
      <p id={helpId} className="visually-hidden">
        Arrow keys move the selection between frames, Enter zooms to it, Escape zooms out, Shift+F10 opens its menu of
        transforms. The selected frame is described under the graph. Press question mark for all shortcuts.
      </p>
      {tooltip ?? <Tooltip />}
      {menu.element}
    </div>
  );
}
