// The tooltip of a comparison graph (the baseline, the comparison and the differential graph):
// the hovered path's and function's figures in both runs, as the compare worker answered them.

import { shownFigures } from '../../controllers/compare-results';
import type { ComparePane } from '../../store/compare-slice';
import { useStore } from '../../store/store';
import { BreakableName } from '../BreakableName';
import { MAX_TOOLTIP_NAME } from '../../core/views/shorten';
import { TipBox } from '../TipBox';
import { CompareFigures, presenceText } from './CompareFigures';

const WIDTH = 420;

export function DiffTooltip({ pane }: { pane: ComparePane }) {
  const norm = useStore((s) => s.compare.norm);
  const ns = useStore((s) => s.recordings.a.snapshot?.meta.weightUnit === 'nanoseconds');
  const node = useStore((s) => (pane === 'main' ? s.panes.main.hoverNode : s.panes[pane].hoverNode));
  const pos = useStore((s) => (pane === 'main' ? s.panes.main.hoverPos : s.panes[pane].hoverPos));
  const figures = useStore((s) => shownFigures(s, 'hover', pane, node)?.reply ?? null);
  if (!figures || !pos) return null;
  const status = presenceText(figures);
  return (
    <TipBox x={pos.x} y={pos.y} width={WIDTH} within={`[data-compare-pane="${pane}"]`} aboveFrom={160} className="compare-tooltip" testId={`${pane}-diff-tooltip`}>
      <div className="compare-tooltip-name">
        <BreakableName name={figures.name} max={MAX_TOOLTIP_NAME} />
      </div>
      {status && <div className="compare-tooltip-status">{status}</div>}
      <CompareFigures figures={figures} norm={norm} ns={ns} />
    </TipBox>
  );
}
