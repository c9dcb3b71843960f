// A node's figures in both runs: A, B, Δ and Δ% of its path's total and self weight, and of its
// function over all call sites; for the comparison tooltips and the details of a selected frame.

import type { Compared, DiffNorm } from '../../core/views/diff';
import type { FiguresReply } from '../../core/session/compare-protocol';
import { formatDelta, formatDeltaPct, formatValue } from '../../format';

export function presenceText(figures: FiguresReply): string | null {
  const p = figures.path.presentIn;
  return p === 'both' ? null : p === 'B' ? 'New in the comparison (only B has this path)' : 'Gone in the comparison (only A has this path)';
}

/** `path`: only the path's rows (the details, which float over the graph, stay small). */
export function CompareFigures({ figures, norm, ns, path = false }: { figures: FiguresReply; norm: DiffNorm; ns: boolean; path?: boolean }) {
  const fn = path ? null : figures.fn;
  return (
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
        <Row label="Total" c={figures.path.total} norm={norm} ns={ns} id="path-total" />
        <Row label="Self" c={figures.path.self} norm={norm} ns={ns} id="path-self" />
        {fn && (
          <>
            <tr>
              <th scope="rowgroup" colSpan={5} className="compare-figures-group">
                Function, all call sites{fn.status !== 'both' ? ` (${fn.status})` : ''}
              </th>
            </tr>
            <Row label="Total" c={fn.total} norm={norm} ns={ns} id="function-total" />
            <Row label="Self" c={fn.self} norm={norm} ns={ns} id="function-self" />
          </>
        )}
      </tbody>
    </table>
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
