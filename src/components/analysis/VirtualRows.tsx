// The virtualised body of the analysis tables (function table, call tree): the window of
// fixed-height rows in view (plus a few either side), the body scrolled to keep the selected row
// in view, and the grid around them whose scrolling body has the height of every row.

import { useEffect, useLayoutEffect, useState, type KeyboardEvent, type ReactNode, type RefObject, type UIEvent } from 'react';

export const ROW_HEIGHT = 22;
const OVERSCAN = 8;

export function useVirtualRows(body: RefObject<HTMLDivElement | null>, count: number, selected: number, mounted: boolean) {
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
    first: Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN),
    last: Math.min(count, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN),
    pageRows: Math.max(1, Math.floor(height / ROW_HEIGHT) - 1),
    onScroll: (e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop),
  };
}

interface VirtualGridProps {
  role: 'grid' | 'treegrid';
  label: string;
  /** Body rows (the header row is one more). */
  count: number;
  columns: number;
  /** The id of the selected row when it is in the DOM. */
  active: string | undefined;
  /** The id of the element that explains the keys. */
  help: string;
  onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  /** The header row. */
  head: ReactNode;
  body: RefObject<HTMLDivElement | null>;
  /** The focusable grid element (e.g. where a menu returns the focus). */
  grid?: RefObject<HTMLDivElement | null>;
  onScroll: (e: UIEvent<HTMLDivElement>) => void;
  /** The rows in the window, placed by translateY(index * ROW_HEIGHT). */
  children: ReactNode;
}

/** The focusable ARIA grid: the header row group, then the scrolling body with only the rows in view. */
export function VirtualGrid(p: VirtualGridProps) {
  return (
    <div
      className="fn-table"
      role={p.role}
      aria-label={p.label}
      aria-rowcount={p.count + 1}
      aria-colcount={p.columns}
      aria-activedescendant={p.active}
      aria-describedby={p.help}
      tabIndex={0}
      ref={p.grid}
      onKeyDown={p.onKeyDown}
    >
      <div role="rowgroup" className="fn-head">
        {p.head}
      </div>
      <div role="rowgroup" className="fn-body" ref={p.body} onScroll={p.onScroll}>
        <div className="fn-spacer" style={{ height: p.count * ROW_HEIGHT }}>
          {p.children}
        </div>
      </div>
    </div>
  );
}
