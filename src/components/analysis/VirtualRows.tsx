// The virtualised body of the analysis tables (function table, call tree): the window of
// fixed-height rows in view (plus a few either side), the body scrolled to keep the selected row
// in view, and the grid around them whose scrolling body has the height of every row.

import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type UIEvent } from 'react';

export const ROW_HEIGHT = 22;
const OVERSCAN = 8;

/** The window of rows in view, and the grid's and its scrolling body's elements. */
export type VirtualRows = ReturnType<typeof useVirtualRows>;

export function useVirtualRows(count: number, selected: number, mounted: boolean) {
  const body = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    setHeight(el.clientHeight);
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, [body, mounted]);
  // Keep the selected row in view (a click in the flame graph, the keyboard, a link).
  useEffect(() => {
    const el = body.current;
    if (!el || selected < 0) return;
    const top = selected * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [body, selected]);
  return {
    body,
    grid,
    first: Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN),
    last: Math.min(count, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN),
    pageRows: Math.max(1, Math.floor(height / ROW_HEIGHT) - 1),
    onScroll: (e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop),
  };
}

/**
 * The row an arrow, Page or Home/End key moves the selection to in a grid of `count` rows (not
 * clamped; from nothing selected, the arrows go to the first row), or null for any other key.
 */
export function movedRow(key: string, pos: number, count: number, pageRows: number): number | null {
  if (key === 'ArrowDown') return pos < 0 ? 0 : pos + 1;
  if (key === 'ArrowUp') return pos < 0 ? 0 : pos - 1;
  if (key === 'PageDown') return Math.max(0, pos) + pageRows;
  if (key === 'PageUp') return Math.max(0, pos) - pageRows;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

interface VirtualGridProps {
  role: 'grid' | 'treegrid';
  label: string;
  /** Body rows (the header row is one more). */
  count: number;
  /** The selected row (-1: none) and the id of a row's element. */
  selected: number;
  rowId: (i: number) => string;
  /** The id of the element that explains the keys. */
  help: string;
  onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  /** The header row's cells (role columnheader), one a column, and the row's class. */
  headers: ReactNode[];
  headClass: string;
  /** From useVirtualRows. */
  view: VirtualRows;
  /** The rows in the window, placed by translateY(index * ROW_HEIGHT). */
  children: ReactNode;
}

/** The focusable ARIA grid: the header row group, then the scrolling body with only the rows in view. */
export function VirtualGrid(p: VirtualGridProps) {
  const { first, last } = p.view;
  return (
    <div
      className="fn-table"
      role={p.role}
      aria-label={p.label}
      aria-rowcount={p.count + 1}
      aria-colcount={p.headers.length}
      aria-activedescendant={p.selected >= first && p.selected < last ? p.rowId(p.selected) : undefined}
      aria-describedby={p.help}
      tabIndex={0}
      ref={p.view.grid}
      onKeyDown={p.onKeyDown}
    >
      <div role="rowgroup" className="fn-head">
        <div role="row" aria-rowindex={1} className={p.headClass}>
          {p.headers}
        </div>
      </div>
      <div role="rowgroup" className="fn-body" ref={p.view.body} onScroll={p.view.onScroll}>
        <div className="fn-spacer" style={{ height: p.count * ROW_HEIGHT }}>
          {p.children}
        </div>
      </div>
    </div>
  );
}
