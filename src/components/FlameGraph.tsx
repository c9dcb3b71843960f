// The flame graph: a focusable container holding the canvas. The renderer and the mouse
// interaction are plain classes attached once; this component never re-renders on zoom, pan,
// hover or search.

import { useEffect, useRef, type KeyboardEvent } from 'react';
import { FlameRenderer } from '../render/flame-renderer';
import { attachInteraction } from '../render/interaction';
import { handleFlameKey } from '../render/keyboard';
import { Tooltip } from './Tooltip';

export function FlameGraph() {
  const container = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const spacer = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!container.current || !canvas.current || !spacer.current) return;
    const renderer = new FlameRenderer(container.current, canvas.current, spacer.current);
    const detach = attachInteraction(container.current, canvas.current, renderer);
    return () => {
      detach();
      renderer.destroy();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (handleFlameKey(e.key)) e.preventDefault();
  };

  return (
    <div className="flame-wrap">
      <div
        ref={container}
        className="flame-graph"
        role="application"
        aria-label="Flame graph"
        aria-roledescription="flame graph"
        aria-describedby="flame-graph-help"
        aria-busy="true"
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <canvas ref={canvas} className="flame-canvas" aria-hidden="true" />
        <div ref={spacer} className="flame-spacer" />
      </div>
      <p id="flame-graph-help" className="visually-hidden">
        Arrow keys move the selection between frames, Enter zooms to it, Escape zooms out. The selected frame is described
        under the graph. Press question mark for all shortcuts.
      </p>
      <Tooltip />
    </div>
  );
}
