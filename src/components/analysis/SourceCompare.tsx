// The Source panel's figures with a comparison open: each line of the selected function in A
// (the baseline) and B (the comparison) as shares of each run's samples with lines, and the
// change B − A in percentage points, largest change first or in file order. Rows are the
// recordings' text, rendered as text.

import { useMemo } from 'react';
import { formatDelta, formatValue } from '../../format';
import { byChange, compareLines } from '../../core/query/compare-lines';
import type { FunctionLines } from '../../core/query/source-lines';
import { linePlace, type LineOrder } from '../../core/query/source-listing';

const pct = (share: number) => formatValue(share * 100, 'pct', false);
const delta = (d: number) => formatDelta(d * 100, 'pct', false);

export function SourceCompare({ a, b, order, onLine }: { a: FunctionLines | null; b: FunctionLines | null; order: LineOrder; onLine: (file: string) => void }) {
  const rows = useMemo(() => {
    const all = compareLines(a, b);
    return order === 'file' ? all : byChange(all);
  }, [a, b, order]);
  return (
    <div className="src-figures">
      <table className="al-table" aria-label="Lines of the function in A and B">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col" className="al-num" title="Self share in A (baseline)">A self</th>
            <th scope="col" className="al-num" title="Self share in B (comparison)">B self</th>
            <th scope="col" className="al-num" title="B − A, percentage points">Δ self</th>
            <th scope="col" className="al-num" title="Total share in A (baseline)">A total</th>
            <th scope="col" className="al-num" title="Total share in B (comparison)">B total</th>
            <th scope="col" className="al-num" title="B − A, percentage points">Δ total</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} onClick={() => r.file !== null && onLine(r.file)}>
              <td className="al-text">{linePlace(r)}</td>
              <td className="al-num">{pct(r.aSelf)}</td>
              <td className="al-num">{pct(r.bSelf)}</td>
              <td className="al-num">{delta(r.bSelf - r.aSelf)}</td>
              <td className="al-num">{pct(r.aTotal)}</td>
              <td className="al-num">{pct(r.bTotal)}</td>
              <td className="al-num">{delta(r.bTotal - r.aTotal)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
