// The tooltip of a callers/callees graph: the hovered frame's full name, its weight on this
// caller/callee path, and its share of the selected function's total. React text only.

import { useMemo } from 'react';
import { callersCalleesNodeInfo } from '../../core/query/callers-callees';
import { currentCallersCallees } from '../../store/selectors';
import type { CallersCalleesPane } from '../../store/analysis-slice';
import { useStore } from '../../store/store';
import { BreakableName } from '../BreakableName';
import { MAX_TOOLTIP_NAME } from '../../core/views/shorten';
import { TipBox } from '../TipBox';
import { formatNs, formatPercent, formatWeight } from '../../format';

const WIDTH = 380;

export function CallersCalleesTooltip({ pane }: { pane: CallersCalleesPane }) {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const trees = useStore(currentCallersCallees);
  const node = useStore((s) => s.panes[pane].hoverNode);
  const pos = useStore((s) => s.panes[pane].hoverPos);
  const fn = useStore((s) => s.analysis.selectedFunction);
  const info = useMemo(() => (trees && snapshot ? callersCalleesNodeInfo(trees[pane], snapshot.frames, node) : null), [trees, snapshot, pane, node]);
  if (!info || !pos || !snapshot) return null;
  const ns = snapshot.meta.weightUnit === 'nanoseconds';
  const path = pane === 'callers' ? `called through this path` : `spent in this callee path`;
  return (
    <TipBox x={pos.x} y={pos.y} width={WIDTH} within={`[data-callers-callees-pane="${pane}"]`} aboveFrom={120} testId={`${pane}-tooltip`}>
      <div className="frame-name">
        <span className="frame-name-text">
          <BreakableName name={info.name} max={MAX_TOOLTIP_NAME} />
        </span>
        {info.inlined && <span className="frame-badge frame-badge-inlined">inlined</span>}
      </div>
      <dl className="fn-tip">
        <dt>Total</dt>
        <dd>
          {formatWeight(info.totalSamples, ns ? formatNs(info.totalWeight) : null)}, {formatPercent(info.ofFunction)} of {fn ?? 'the function'} ({path})
        </dd>
        <dt>Self</dt>
        <dd>{formatWeight(info.selfSamples, ns ? formatNs(info.selfWeight) : null)}</dd>
      </dl>
    </TipBox>
  );
}
