// The function table beside the flame graph: every function of the tree the graph shows, with its
// self and total weight over all call sites. A virtualised ARIA grid: only the rows in view (plus
// a few) are in the DOM, so 100,000 functions scroll like 100. Click a header to sort, click a
// row (or move with the arrow keys) to select the function; Enter opens its callers and callees.
// Names are untrusted and rendered as React text only.

import { useMemo, type KeyboardEvent } from 'react';
import { currentTable } from '../../store/selectors';
import { displayName, displayRows, positionOf, rowFigures } from '../../core/query/table-model';
import type { TableColumn } from '../../store/analysis-slice';
import { useStore } from '../../store/store';
import { formatCount, formatNs, formatPercent } from '../../format';
import { functionCss } from '../../core/palette';
import { useDarkTheme } from '../toolbar/FrameLegend';
import { movedRow, ROW_HEIGHT, useVirtualRows, VirtualGrid } from './VirtualRows';
import { runFrameShortcut } from '../../controllers/frame-actions';
import { isMenuKey, useFrameMenu } from '../FrameMenu';
import { cutName } from '../../core/views/shorten';

const EMPTY = new Int32Array(0);

// The name first and widest (what a row is about, tied to the graph by its colour swatch), then
// the figures.
const HEADERS: { label: string; sort: TableColumn | null; className: string }[] = [
  { label: 'Function', sort: 'name', className: 'fn-name' },
  { label: 'Self', sort: 'self', className: 'fn-num' },
  { label: 'Self %', sort: null, className: 'fn-num' },
  { label: 'Total', sort: 'total', className: 'fn-num' },
  { label: 'Total %', sort: null, className: 'fn-num' },
];

export function FunctionTable() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const sort = useStore((s) => s.analysis.sort);
  const matches = useStore((s) => s.search.matches);
  const selected = useStore((s) => s.analysis.selectedFunction);
  const short = useStore((s) => s.analysis.shortNames);
  const dark = useDarkTheme();
  const frames = snapshot?.frames ?? null;
  // Computed here for a small tree, by the analysis worker for a large one (null until it arrives).
  const table = useStore(currentTable);
  const pending = useStore((s) => s.analysis.pending);
  const rows = useMemo(() => (table && frames ? displayRows(table, frames, sort, matches) : EMPTY), [table, frames, sort, matches]);
  const pos = useMemo(() => (table && frames ? positionOf(table, frames, rows, selected) : -1), [table, frames, rows, selected]);

  const view = useVirtualRows(rows.length, pos, table !== null);
  const { first, last, pageRows, grid } = view;
  // The frame menu of a row (right-click, Shift+F10, the menu key); a transform's letter applies it.
  const menu = useFrameMenu();

  if (!table || !frames) {
    return pending ? (
      <p className="fn-empty" aria-busy="true">
        Computing the function table…
      </p>
    ) : null;
  }
  const ns = snapshot?.meta.weightUnit === 'nanoseconds';
  const weight = (w: number) => (ns ? formatNs(w) : formatCount(w));
  const { pickFunction, sortTable, setAnalysisPanel } = useStore.getState();
  const nameAt = (i: number) => frames.strings[table.name[rows[i]]];

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || rows.length === 0) return;
    if (pos >= 0 && isMenuKey(e)) {
      e.preventDefault();
      const r = document.getElementById(rowId(pos))?.getBoundingClientRect();
      const g = e.currentTarget.getBoundingClientRect();
      menu.open({ name: nameAt(pos), node: null }, { x: (r ?? g).left + 24, y: r ? r.bottom : g.top + 24, returnFocus: grid.current });
      return;
    }
    if (pos >= 0 && e.key.length === 1 && runFrameShortcut(e.key, { name: nameAt(pos), node: null })) {
      e.preventDefault();
      return;
    }
    const to = movedRow(e.key, pos, rows.length, pageRows);
    if (to === null) {
      if (e.key === 'Enter' && pos >= 0) {
        e.preventDefault();
        setAnalysisPanel('callersCallees');
      }
      return;
    }
    e.preventDefault();
    pickFunction(nameAt(Math.max(0, Math.min(rows.length - 1, to))));
  };

  const count = table.count.toLocaleString('en-US');
  const caption = matches ? `${rows.length.toLocaleString('en-US')} of ${count} functions match the search` : `${count} functions`;
  const rowId = (i: number) => `fn-row-${i}`;
  const items = [];
  for (let i = first; i < last; i++) {
    const fig = rowFigures(table, frames, rows[i]);
    const isSelected = i === pos;
    items.push(
      <div
        key={rows[i]}
        id={rowId(i)}
        role="row"
        aria-rowindex={i + 2}
        aria-selected={isSelected}
        className={`fn-row${isSelected ? ' selected' : ''}`}
        style={{ transform: `translateY(${i * ROW_HEIGHT}px)` }}
        onClick={() => pickFunction(fig.name)}
        onDoubleClick={() => (pickFunction(fig.name), setAnalysisPanel('callersCallees'))}
        onContextMenu={(e) => {
          e.preventDefault();
          pickFunction(fig.name);
          menu.open({ name: fig.name, node: null }, { x: e.clientX, y: e.clientY, returnFocus: grid.current });
        }}
      >
        <div role="gridcell" className="fn-name" title={cutName(fig.name)}>
          <span className="fn-swatch" style={{ background: functionCss(fig.name, fig.kernel, dark) }} aria-hidden="true" />
          <span className="fn-name-text">{displayName(fig.name, short)}</span>
          {fig.inlined && <span className="fn-badge" title="Inlined at some call sites">inlined</span>}
          {fig.kernel && <span className="fn-badge">kernel</span>}
        </div>
        <div role="gridcell" className="fn-num">{weight(fig.self)}</div>
        <div role="gridcell" className="fn-num">{formatPercent(fig.selfShare)}</div>
        <div role="gridcell" className="fn-num">{weight(fig.total)}</div>
        <div role="gridcell" className="fn-num">{formatPercent(fig.totalShare)}</div>
      </div>,
    );
  }

  return (
    <section className="fn-table-wrap" aria-label="Function table">
      <p className="fn-caption" role="status" data-testid="fn-caption">
        {caption}
      </p>
      {rows.length === 0 && <p className="fn-empty">{matches ? 'No function matches the search.' : 'No functions.'}</p>}
      <VirtualGrid
        role="grid"
        label="Functions"
        count={rows.length}
        selected={pos}
        rowId={rowId}
        help="fn-table-help"
        onKeyDown={onKeyDown}
        view={view}
        headClass="fn-row fn-head-row"
        headers={HEADERS.map((h) => (
          <div
            key={h.label}
            role="columnheader"
            className={h.className}
            aria-sort={h.sort && sort.by === h.sort ? (sort.descending ? 'descending' : 'ascending') : undefined}
          >
            {h.sort ? (
              <button type="button" className="fn-sort" onClick={() => sortTable(h.sort!)}>
                {h.label}
                <span aria-hidden="true">{sort.by === h.sort ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
              </button>
            ) : (
              h.label
            )}
          </div>
        ))}
      >
        {items}
      </VirtualGrid>
      <p id="fn-table-help" className="visually-hidden">
        Up and down arrows select a function and highlight its frames in the flame graph; Enter shows its callers and callees;
        Shift+F10 opens its menu of transforms.
      </p>
      {menu.element}
    </section>
  );
}
