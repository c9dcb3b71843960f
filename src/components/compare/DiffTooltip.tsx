// The tooltip of a comparison graph: A, B, Δ and Δ% for the hovered path's total and self
// weight (nodeDelta), and for its function over all call sites (functionDeltaOf).

import { useMemo } from 'react';
import { frameName } from '../../core/model/frame-table';
import { nodeDelta, type Compared, type DiffNorm } from '../../core/views/diff';
import { functionDeltaOf } from '../../core/views/function-deltas';
import { diffOf } from '../../core/query/diff-sides';
import { useStore } from '../../store/store';
import { formatDelta, formatDeltaPct, formatValue } from '../../format';

const WIDTH = 420;

export function DiffTooltip({ pane }: { pane: 'side' | 'diff' }) {
  const a = useStore((s) => s.snapshot);
  const b = useStore((s) => s.compare.snapshot);
  const view = useStore((s) => s.view);
  const norm = useStore((s) => s.compare.norm);
  const shape = useStore((s) => (pane === 'side' ? 'B' : s.compare.shape));
  const node = useStore((s) => s.compare[pane].hoverNode);
  const pos = useStore((s) => s.compare[pane].hoverPos);
  const info = useMemo(() => {
    if (!a || !b || node < 0) return null;
    const diff = diffOf(a, b, view, shape);
    const side = shape === 'B' ? diff.b : diff.a;
    if (node >= side.tree.nodeCount) return null;
    const name = node === 0 ? 'all' : frameName(side.frames, side.tree.frame[node]);
    const d = nodeDelta(diff, node, { norm });
    const fn = node === 0 ? null : functionDeltaOf(diff.a, diff.b, name, { norm });
    return { name, d, fn };
  }, [a, b, view, shape, node, norm]);
  if (!info || !pos || !a) return null;
  const ns = a.meta.weightUnit === 'nanoseconds';
  const wrap = document.querySelector(`[data-compare-pane="${pane}"]`)?.clientWidth ?? 1000;
  const left = pos.x + 14 + WIDTH > wrap ? Math.max(0, pos.x - 14 - WIDTH) : pos.x + 14;
  const below = pos.y <= 160;
  const status = info.d.presentIn === 'both' ? null : info.d.presentIn === 'B' ? 'New in the comparison (only B has this path)' : 'Gone in the comparison (only A has this path)';
  return (
    <div className="flame-tooltip compare-tooltip" role="tooltip" data-testid={`${pane}-diff-tooltip`} style={{ left, top: below ? pos.y + 18 : pos.y - 12, maxWidth: WIDTH, transform: below ? undefined : 'translateY(-100%)' }}>
      <div className="compare-tooltip-name">{info.name}</div>
      {status && <div className="compare-tooltip-status">{status}</div>}
      <table className="compare-figures">
        <thead>
          <tr>
            <th scope="col">{norm === 'pct' ? '% of total' : 'weight'}</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">Δ</th>
            <th scope="col">Δ%</th>
          </tr>
        </thead>
        <tbody>
          <Row label="Total" c={info.d.total} norm={norm} ns={ns} id="path-total" />
          <Row label="Self" c={info.d.self} norm={norm} ns={ns} id="path-self" />
          {info.fn && (
            <>
              <tr>
                <th scope="rowgroup" colSpan={5} className="compare-figures-group">
                  Function, all call sites{info.fn.status !== 'both' ? ` (${info.fn.status})` : ''}
                </th>
              </tr>
              <Row label="Total" c={info.fn.total} norm={norm} ns={ns} id="function-total" />
              <Row label="Self" c={info.fn.self} norm={norm} ns={ns} id="function-self" />
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}

function Row({ label, c, norm, ns, id }: { label: string; c: Compared; norm: DiffNorm; ns: boolean; id: string }) {
  const cls = c.delta > 0 ? 'grew' : c.delta < 0 ? 'shrank' : undefined;
  return (
    <tr data-row={id}>
      <th scope="row">{label}</th>
      <td>{formatValue(c.a, norm, ns)}</td>
      <td>{formatValue(c.b, norm, ns)}</td>
      <td className={cls}>{formatDelta(c.delta, norm, ns)}</td>
      <td className={cls}>{formatDeltaPct(c)}</td>
    </tr>
  );
}
