// An annotated listing: one row per line of text (source lines, or instructions) with a gutter
// label, the text, and two weights with heat bars, the hottest row scrolled into view when the
// rows change. General on purpose: the Source panel gives it a file's lines, the Assembly panel
// a function's instructions. Text is rendered as text (React escapes it), never as markup.

import { useEffect, useRef, type ReactNode } from 'react';
import { formatPercent } from '../../format';

export interface ListingRowView {
  /** Left of the text: a line number, an address. */
  gutter: string;
  /** The line's text, or null when only the figures are known. */
  text: string | null;
  self: number;
  total: number;
  /** An "open in editor / repository" link for the row, when one is set. */
  link?: string | null;
  /** A label between rows (an assembly listing's `file:line`): no figures, drawn quieter. */
  note?: boolean;
  /** A jump to another row (an instruction's branch target): a button after the text that scrolls there. */
  jump?: { label: string; row: number } | null;
}

export interface AnnotatedListingProps {
  label: string;
  /** The gutter column's header: "Line", "Address". */
  gutterHeader: string;
  rows: readonly ListingRowView[];
  /** Index of the row to scroll into view (-1: none), marked as the hottest. */
  hottest: number;
  /** The weight 100 % stands for (the shares' denominator); heat bars scale to the heaviest row. */
  all: number;
  /** A row's weight as shown beside its share (samples, time). */
  format: (weight: number) => string;
  /** Shown above the rows (file name, notes). */
  caption?: ReactNode;
  /** Whether the Total column is shown (an instruction has no total apart from its self). Default true. */
  totals?: boolean;
  /** The text column's header: "Text" (a line's, an instruction's); a table of weights alone names them. */
  textHeader?: string;
}

export function AnnotatedListing({ label, gutterHeader, rows, hottest, all, format, caption, totals = true, textHeader = 'Text' }: AnnotatedListingProps) {
  const hot = useRef<HTMLTableRowElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  // A jump scrolls its target row into view and focuses it, so the keyboard can follow the jump too.
  const jumpTo = (row: number) => {
    const tr = body.current?.rows[row];
    tr?.scrollIntoView({ block: 'center' });
    tr?.focus();
  };
  useEffect(() => {
    hot.current?.scrollIntoView({ block: 'center' });
  }, [rows, hottest]);
  let max = 0;
  for (const r of rows) max = Math.max(max, r.total, r.self);
  const cell = (w: number, kind: 'self' | 'total') => (
    <td className={`al-num al-${kind}`} title={w > 0 ? `${kind}: ${format(w)}` : undefined}>
      {w > 0 && (
        <>
          <span className="al-bar" style={{ width: `${max > 0 ? (100 * w) / max : 0}%` }} aria-hidden="true" />
          <span className="al-val">{all > 0 ? formatPercent(w / all) : format(w)}</span>
        </>
      )}
    </td>
  );
  return (
    <div className="al-wrap">
      {caption && <div className="al-caption">{caption}</div>}
      <div className="al-scroll">
        <table className="al-table" aria-label={label}>
          <thead>
            <tr>
              <th scope="col" className="al-num">
                Self
              </th>
              {totals && (
                <th scope="col" className="al-num">
                  Total
                </th>
              )}
              <th scope="col" className="al-gutter">
                {gutterHeader}
              </th>
              <th scope="col">{textHeader}</th>
            </tr>
          </thead>
          <tbody ref={body}>
            {rows.map((r, i) => (
              <tr
                key={i}
                ref={i === hottest ? hot : undefined}
                tabIndex={-1}
                className={i === hottest ? 'al-hottest' : r.note ? 'al-note' : r.total > 0 || r.self > 0 ? 'al-weighted' : undefined}
                aria-current={i === hottest ? 'true' : undefined}
              >
                {cell(r.self, 'self')}
                {totals && cell(r.total, 'total')}
                <td className="al-gutter">{r.link ? <a href={r.link} target="_blank" rel="noopener noreferrer" title={`Open line ${r.gutter}`}>{r.gutter}</a> : r.gutter}</td>
                <td className="al-text">
                  {r.text ?? <span className="al-missing">(text not at hand)</span>}
                  {r.jump && (
                    <button type="button" className="al-jump" onClick={() => jumpTo(r.jump!.row)} title={`Scroll to ${rows[r.jump.row]?.gutter ?? 'the target'}`}>
                      {r.jump.label}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
