// The main flame graph with the analysis panel (one of store/panels.ts, drawn by its entry in
// panel-views.tsx) in a column on its right, the two separated by a draggable splitter (also moved with the
// arrow keys).
// Registers the panel's link parameters (panel=, fn=, names=) at module load.

import { Suspense, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useStore } from '../../store/store';
import '../../styles/analysis.css';
import { panelById } from '../../store/panels';
import { PANEL_VIEWS } from './panel-views';

const MIN_WIDTH = 280;
const STEP = 40;

function clampWidth(width: number, total: number): number {
  return Math.round(Math.max(MIN_WIDTH, Math.min(width, total - MIN_WIDTH)));
}

export function AnalysisLayout({ children }: { children: ReactNode }) {
  const panel = useStore((s) => s.analysis.panel);
  const View = panel === 'none' ? null : PANEL_VIEWS[panel].View;
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(560);
  const drag = useRef<{ x: number; width: number } | null>(null);

  const total = () => box.current?.clientWidth ?? 1200;
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = { x: e.clientX, width };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setWidth(clampWidth(drag.current.width - (e.clientX - drag.current.x), total()));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowLeft') setWidth((w) => clampWidth(w + STEP, total()));
    else if (e.key === 'ArrowRight') setWidth((w) => clampWidth(w - STEP, total()));
    else return;
    e.preventDefault();
  };

  return (
    <div className="analysis-split" ref={box}>
      {children}
      {panel !== 'none' && View && (
        <>
          <div
            className="analysis-splitter"
            role="separator"
            aria-orientation="vertical"
            aria-label="Resize the analysis panel"
            aria-valuenow={width}
            aria-valuemin={MIN_WIDTH}
            tabIndex={0}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onKeyDown={onKeyDown}
          />
          <aside className="analysis-panel" style={{ width }} aria-label={panelById(panel).label}>
            <Suspense fallback={null}>
              <View />
            </Suspense>
          </aside>
        </>
      )}
    </div>
  );
}
