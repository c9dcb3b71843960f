// The function table beside the flame graph: every function of the tree the graph shows, with its
// self and total weight over all call sites. A virtualised ARIA grid: only the rows in view (plus
// a few) are in the DOM, so 100,000 functions scroll like 100. Click a header to sort, click a
// row (or move with the arrow keys) to select the function; Enter opens its callers and callees.
// Names are untrusted and rendered as React text only.

import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { currentTable } from '../../store/selectors';
import { displayName, displayRows, positionOf, rowFigures } from '../../core/query/table-model';
import type { TableColumn } from '../../store/analysis-slice';
import { useStore } from '../../store/store';
import { formatCount, formatNs, formatPercent } from '../../format';
import { functionCss } from '../../core/palette';
import { useDarkTheme } from '../toolbar/FrameLegend';

const ROW_HEIGHT = 22;
const OVERSCAN = 8;
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
  const snapshot = useStore((s) => s.snapshot);
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

  const body = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const hasTable = table !== null;
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    setHeight(el.clientHeight);
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, [hasTable]);
  // Keep the selected row in view (a click in the flame graph, the keyboard, a link).
  useEffect(() => {
    const el = body.current;
    if (!el || pos < 0) return;
    const top = pos * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [pos]);

  if (!table || !frames) {
    return pending ? (
      <p className="fn-empty" aria-busy="true">
        Computing the function table…
      </p>
    ) : null;
  }
  const ns = snapshot?.meta.weightUnit === 'nanoseconds';
  const weight = (w: number) => (ns ? formatNs(w) : formatCount(w));
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const pageRows = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
  const { pickFunction, sortTable, setAnalysisPanel } = useStore.getState();
  const nameAt = (i: number) => frames.strings[table.name[rows[i]]];

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || rows.length === 0) return;
    let to = -2;
    if (e.key === 'ArrowDown') to = pos < 0 ? 0 : pos + 1;
    else if (e.key === 'ArrowUp') to = pos < 0 ? 0 : pos - 1;
    else if (e.key === 'PageDown') to = Math.max(0, pos) + pageRows;
    else if (e.key === 'PageUp') to = Math.max(0, pos) - pageRows;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = rows.length - 1;
    else if (e.key === 'Enter' && pos >= 0) {
      e.preventDefault();
      setAnalysisPanel('sandwich');
      return;
    } else return;
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
        onDoubleClick={() => (pickFunction(fig.name), setAnalysisPanel('sandwich'))}
      >
        <div role="gridcell" className="fn-name" title={fig.name}>
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
      <div
        className="fn-table"
        role="grid"
        aria-label="Functions"
        aria-rowcount={rows.length + 1}
        aria-colcount={HEADERS.length}
        aria-activedescendant={pos >= first && pos < last ? rowId(pos) : undefined}
        aria-describedby="fn-table-help"
        tabIndex={0}
        onKeyDown={onKeyDown}
      >
        <div role="rowgroup" className="fn-head">
          <div role="row" aria-rowindex={1} className="fn-row fn-head-row">
            {HEADERS.map((h) => (
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
          </div>
        </div>
        <div role="rowgroup" className="fn-body" ref={body} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
          <div className="fn-spacer" style={{ height: rows.length * ROW_HEIGHT }}>
            {items}
          </div>
        </div>
      </div>
      <p id="fn-table-help" className="visually-hidden">
        Up and down arrows select a function and highlight its frames in the flame graph; Enter shows its callers and callees.
      </p>
    </section>
  );
}
