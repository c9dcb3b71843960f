// The details of a frame selected in a comparison graph: its path's figures in both runs (A, B,
// Δ, Δ%), as the compare worker answered them, and which graph the selection is in. (The tooltip
// adds the function's figures over all call sites; the details float over the graph, so they stay small.)

import type { FiguresReply } from '../../core/session/compare-protocol';
import type { ComparePane } from '../../store/compare-slice';
import { useStore } from '../../store/store';
import { BreakableName } from '../BreakableName';
import { CompareFigures, presenceText } from './CompareFigures';

const PANE_NAMES: Record<ComparePane, string> = { main: 'A · baseline', side: 'B · comparison', diff: 'differential' };

export function CompareDetails({ figures, pane }: { figures: FiguresReply; pane: ComparePane }) {
  const norm = useStore((s) => s.compare.norm);
  const ns = useStore((s) => s.recordings.a.snapshot?.meta.weightUnit === 'nanoseconds');
  const status = presenceText(figures);
  return (
    <div className="frame-figures" data-testid="compare-details">
      <div className="frame-name">
        <span className="frame-name-text">
          <BreakableName name={figures.name} />
        </span>
        <span className="frame-badge">{PANE_NAMES[pane]}</span>
      </div>
      {status && <div className="compare-tooltip-status">{status}</div>}
      <CompareFigures figures={figures} norm={norm} ns={ns} path />
    </div>
  );
}
