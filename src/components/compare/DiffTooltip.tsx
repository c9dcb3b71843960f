// The tooltip of a comparison graph (the baseline, the comparison and the differential graph):
// the hovered path's and function's figures in both runs, as the compare worker answered them.

import { shownFigures } from '../../controllers/compare-results';
import type { ComparePane } from '../../store/compare-slice';
import { useStore } from '../../store/store';
import { BreakableName } from '../BreakableName';
import { CompareFigures, presenceText } from './CompareFigures';

const WIDTH = 420;

export function DiffTooltip({ pane }: { pane: ComparePane }) {
  const norm = useStore((s) => s.compare.norm);
  const ns = useStore((s) => s.snapshot?.meta.weightUnit === 'nanoseconds');
  const node = useStore((s) => (pane === 'main' ? s.hoverNode : s.compare[pane].hoverNode));
  const pos = useStore((s) => (pane === 'main' ? s.hoverPos : s.compare[pane].hoverPos));
  const figures = useStore((s) => shownFigures(s, 'hover', pane, node)?.reply ?? null);
  if (!figures || !pos) return null;
  const wrap = document.querySelector(`[data-compare-pane="${pane}"]`)?.clientWidth ?? 1000;
  const left = pos.x + 14 + WIDTH > wrap ? Math.max(0, pos.x - 14 - WIDTH) : pos.x + 14;
  const below = pos.y <= 160;
  const status = presenceText(figures);
  return (
    <div className="flame-tooltip compare-tooltip" role="tooltip" data-testid={`${pane}-diff-tooltip`} style={{ left, top: below ? pos.y + 18 : pos.y - 12, maxWidth: WIDTH, transform: below ? undefined : 'translateY(-100%)' }}>
      <div className="compare-tooltip-name">
        <BreakableName name={figures.name} />
      </div>
      {status && <div className="compare-tooltip-status">{status}</div>}
      <CompareFigures figures={figures} norm={norm} ns={ns} />
    </div>
  );
}
