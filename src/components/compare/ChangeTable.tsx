// The functions whose self weight changed most between A and B (new and gone ones included),
// sortable by any column (aria-sort), capped at PAGE rows with "Show more". A click on a row
// searches for the exact name and zooms to the function's heaviest node. When A or B is several
// runs, a spread column gives how far the function's share moves between runs of each side, and a
// change no larger than that is marked noise (core/views/group-deltas.ts, in the compare worker).

import { useMemo, useState } from 'react';
import type { ChangeRow } from '../../core/session/compare-protocol';
import { useStore } from '../../store/store';
import { showFunction } from '../../controllers/show-function';
import { shownTable } from '../../controllers/compare-results';
import { formatDelta, formatDeltaPct, formatValue } from '../../format';

const PAGE = 200;

type Key = 'name' | 'a' | 'b' | 'delta' | 'deltaPct' | 'spread' | 'verdict';
const COLUMNS: { key: Key; label: string }[] = [
  { key: 'name', label: 'Function' },
  { key: 'a', label: 'Self A' },
  { key: 'b', label: 'Self B' },
  { key: 'delta', label: 'Self Δ' },
  { key: 'deltaPct', label: 'Self Δ%' },
];
const GROUP_COLUMNS: { key: Key; label: string }[] = [
  { key: 'spread', label: 'Spread A / B' },
  { key: 'verdict', label: 'Verdict' },
];

function keyOf(row: ChangeRow, key: Key): number | string {
  if (key === 'name') return row.name;
  if (key === 'spread') return row.spread ? Math.max(row.spread.a, row.spread.b) : 0;
  if (key === 'verdict') return row.spread?.noise ? 0 : 1;
  if (key === 'delta') return Math.abs(row.self.delta);
  if (key === 'deltaPct') return Math.abs(row.self.deltaPct);
  return row.self[key];
}

export function ChangeTable() {
  const a = useStore((s) => s.recordings.a.snapshot);
  const b = useStore((s) => s.recordings.b.snapshot);
  // Rows from the compare worker (controllers/compare-results.ts); the previous ones stay while it computes.
  const table = useStore((s) => s.compare.results.table);
  const [sort, setSort] = useState<{ key: Key; dir: 'ascending' | 'descending' }>({ key: 'delta', dir: 'descending' });
  const [shown, setShown] = useState(PAGE);
  const rows = useMemo(() => table?.rows ?? [], [table]);
  const norm = table?.norm ?? 'pct';
  const ready = useStore((s) => shownTable(s) !== null);
  const sorted = useMemo(() => {
    if (sort.key === 'delta' && sort.dir === 'descending') return rows; // the engine's order
    const k = sort.key;
    const sign = sort.dir === 'ascending' ? 1 : -1;
    return [...rows].sort((x, y) => {
      const p = keyOf(x, k);
      const q = keyOf(y, k);
      return (p < q ? -1 : p > q ? 1 : 0) * sign || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
    });
  }, [rows, sort]);
  if (!a || !b) return null;
  const grouped = rows.some((r) => r.spread);
  const columns = grouped ? [...COLUMNS, ...GROUP_COLUMNS] : COLUMNS;
  const ns = a.meta.weightUnit === 'nanoseconds';
  const onSort = (key: Key) =>
    setSort((s) => (s.key === key ? { key, dir: s.dir === 'ascending' ? 'descending' : 'ascending' } : { key, dir: key === 'name' ? 'ascending' : 'descending' }));
  return (
    <section className="compare-table-wrap" aria-label="Changed functions" aria-busy={!ready}>
      <h2 className="compare-table-title">
        Functions whose self weight changed most <span className="compare-muted">({rows.length.toLocaleString('en-US')} functions; {norm === 'pct' ? '% of each run’s total' : 'absolute weights'}
          {grouped && '; spread: max − min of the share over each side’s runs'})</span>
      </h2>
      <table className="compare-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" aria-sort={sort.key === c.key ? sort.dir : 'none'}>
                <button type="button" onClick={() => onSort(c.key)}>
                  {c.label}
                  <span aria-hidden="true">{sort.key === c.key ? (sort.dir === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.slice(0, shown).map((row) => {
            const cls = row.spread?.noise ? 'compare-noise' : row.self.delta > 0 ? 'grew' : row.self.delta < 0 ? 'shrank' : undefined;
            return (
              <tr key={row.name} onClick={() => showFunction(row.name)} className="compare-row">
                <td>
                  <button type="button" className="compare-fn" title={`Search for ${row.name} and zoom to it`} onClick={(e) => (e.stopPropagation(), showFunction(row.name))}>
                    {row.name}
                  </button>
                  {row.status !== 'both' && <span className={`compare-badge ${row.status}`}>{row.status}</span>}
                </td>
                <td>{formatValue(row.self.a, norm, ns)}</td>
                <td>{formatValue(row.self.b, norm, ns)}</td>
                <td className={cls}>{formatDelta(row.self.delta, norm, ns)}</td>
                <td className={cls}>{formatDeltaPct(row.self)}</td>
                {grouped && <td className="compare-spread">{row.spread && `${row.spread.a.toFixed(2)} / ${row.spread.b.toFixed(2)} pp`}</td>}
                {grouped && (
                  <td>
                    {row.spread?.noise ? (
                      <span className="compare-badge noise" title="The change is no larger than the spread of this function's share between runs of one side">
                        noise
                      </span>
                    ) : (
                      <span className="compare-badge change" title="The change is larger than the spread of this function's share between runs of either side">
                        change
                      </span>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {sorted.length > shown && (
        <button type="button" className="compare-more" onClick={() => setShown(shown + PAGE)}>
          Show more ({(sorted.length - shown).toLocaleString('en-US')} left)
        </button>
      )}
    </section>
  );
}
