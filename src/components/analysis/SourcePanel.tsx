// The Source panel: the selected function's lines with their self and total weight and share
// (hottest first or in file order), an inlined function's call sites in its callers, and the
// annotated listing of one file (AnnotatedListing) with text from the served route or a folder
// the user chose ("Open source folder…", read in the page, never uploaded), links per line from
// the link's srcurl= template. Everything shown here is the recording's or the file's text,
// rendered as text.

import { useMemo, type ChangeEvent } from 'react';
import { useStore } from '../../store/store';
import { formatCount, formatOffset, formatPercent } from '../../format';
import { formatNs } from '../../core/model/weight-text';
import { expandTemplate, hottestFile, linePlace, listing, orderedLines } from '../../core/query/source-listing';
import { SourceCompare } from './SourceCompare';
import type { FunctionLines } from '../../core/query/source-lines';
import type { LinesScopeText } from '../../store/source-slice';
import { AnnotatedListing, type ListingRowView } from './AnnotatedListing';


/** The recording's first sample time and its span (what a range is shown from), or null. */
function timeSpan(samples: { count: number; time: Float64Array } | null): { first: number; span: number } | null {
  if (!samples || samples.count === 0) return null;
  return { first: samples.time[0], span: samples.time[samples.count - 1] - samples.time[0] };
}

/** What narrowed the figures (the transforms, the time range) or why the range could not; null: the whole recording. */
function scopeText(scope: LinesScopeText, fl: FunctionLines, span: { first: number; span: number } | null): string | null {
  const parts: string[] = [];
  if (scope.transforms > 0) parts.push(`after ${scope.transforms === 1 ? 'the transform' : `${scope.transforms} transforms`}`);
  if (scope.range && fl.range === 'applied' && span) parts.push(`from ${formatOffset(scope.range.from - span.first, span.span)} to ${formatOffset(scope.range.to - span.first, span.span)}`);
  let text = parts.length > 0 ? `In the shown view: ${parts.join(', ')}.` : '';
  if (fl.range === 'not-linked') text += `${text ? ' ' : ''}The time range does not narrow these lines: this recording does not link its samples to lines, so they are the whole recording's.`;
  return text || null;
}

export function SourcePanel() {
  const name = useStore((s) => s.analysis.selectedFunction);
  const unit = useStore((s) => s.recordings.a.snapshot?.meta.weightUnit);
  const hasLines = useStore((s) => !!s.recordings.a.snapshot?.lines);
  const { result, pending, order, file: picked, text, template, folder } = useStore((s) => s.sourcePanel);
  const samples = useStore((s) => s.recordings.a.snapshot?.samples ?? null);
  const span = useMemo(() => timeSpan(samples), [samples]);
  const { setSourceOrder, showSourceFile, setSourceFolder } = useStore.getState();
  const weight = (w: number) => (unit === 'nanoseconds' ? formatNs(w) : formatCount(w));
  const fl = result && result.name === name ? result.lines : null;
  // A comparison is open: A's and B's lines side by side; the listing is A's.
  const comparing = !!result && result.name === name && result.b !== undefined;
  const file = fl ? (picked ?? hottestFile(fl)) : null;
  const shown = text && text.file === file && text.state === 'ok' ? text.text : null;
  const list = useMemo(() => (fl && file ? listing(fl, file, shown) : null), [fl, file, shown]);

  const onFolder = (e: ChangeEvent<HTMLInputElement>) => {
    const files = e.currentTarget.files;
    setSourceFolder(files && files.length > 0 ? Array.from(files) : null);
  };
  const folderButton = (
    <label className="btn src-folder" title="Choose the folder that holds the sources: files are matched to the recorded paths by their longest common ending, read here and never uploaded">
      Open source folder…
      <input type="file" className="visually-hidden" aria-label="Open source folder" {...{ webkitdirectory: '', directory: '' }} multiple onChange={onFolder} />
    </label>
  );

  let body;
  if (name === null) body = <p className="fn-empty">Select a function (click a frame, or a row of the function table) to see its source lines.</p>;
  else if (!hasLines) body = <p className="fn-empty">This recording has no source lines. Record with them: perf script -F +srcline (or flameview perf.data --lines), pprof, .cpuprofile or speedscope files with lines.</p>;
  else if (pending || !result || result.name !== name)
    body = (
      <p className="fn-empty" aria-busy="true">
        Reading the lines of {name}…
      </p>
    );
  else if (!fl && !(comparing && result.b)) body = <p className="fn-empty">No source lines were recorded for {name}.</p>;
  else if (!fl) body = <SourceCompare a={null} b={result.b ?? null} order={order} onLine={showSourceFile} />;
  else {
    const all = fl.all;
    const scope = scopeText(result.scope, fl, span);
    const files = [...new Set(fl.lines.map((l) => l.file).filter((f): f is string => f !== null))];
    const rows: ListingRowView[] = (list?.rows ?? []).map((r) => ({ gutter: String(r.line), text: r.text, self: r.self, total: r.total, link: template && file ? expandTemplate(template, file, r.line) : null }));
    body = (
      <>
        <p className="fn-caption" title={name}>
          {comparing
            ? `${name}: total ${formatPercent(fl.total / (all || 1))} in A, ${formatPercent((result.b?.total ?? 0) / (result.b?.all || 1))} in B`
            : `${name}: self ${formatPercent(fl.self / (all || 1))}, total ${formatPercent(fl.total / (all || 1))} of the samples with lines`}
        </p>
        {comparing && <p className="src-sites src-scope">Whole recordings, as the change table compares them: shares of each run&apos;s samples with lines, B − A in points. The listing is A&apos;s.</p>}
        {!comparing && scope && <p className="src-sites src-scope">{scope}</p>}
        {fl.callSites.length > 0 && (
          <p className="src-sites">
            Inlined at{' '}
            {fl.callSites.map((c, i) => (
              <span key={i}>
                {i > 0 && ', '}
                <code>{linePlace(c)}</code> ({formatPercent(c.total / (all || 1))})
              </span>
            ))}
          </p>
        )}
        {comparing ? (
          <SourceCompare a={fl} b={result.b ?? null} order={order} onLine={showSourceFile} />
        ) : (
          <div className="src-figures">
            <table className="al-table" aria-label="Lines of the function">
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col" className="al-num">Self</th>
                  <th scope="col" className="al-num">Self %</th>
                  <th scope="col" className="al-num">Total</th>
                  <th scope="col" className="al-num">Total %</th>
                </tr>
              </thead>
              <tbody>
                {orderedLines(fl.lines, order).map((l, i) => (
                  <tr key={i} className={l.file === file ? 'src-in-file' : undefined} onClick={() => l.file !== null && showSourceFile(l.file)}>
                    <td className="al-text">{linePlace(l)}</td>
                    <td className="al-num">{weight(l.self)}</td>
                    <td className="al-num">{formatPercent(l.self / (all || 1))}</td>
                    <td className="al-num">{weight(l.total)}</td>
                    <td className="al-num">{formatPercent(l.total / (all || 1))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {file && list && (
          <AnnotatedListing
            label={`Source of ${file}`}
            gutterHeader="Line"
            rows={rows}
            hottest={list.hottest}
            all={all}
            format={weight}
            caption={
              <>
                {files.length > 1 ? (
                  <select aria-label="File shown" value={file} onChange={(e) => showSourceFile(e.currentTarget.value)}>
                    {files.map((f) => (
                      <option key={f} value={f}>
                        {f}
                      </option>
                    ))}
                  </select>
                ) : (
                  <code>{file}</code>
                )}
                {template && expandTemplate(template, file, list.rows[Math.max(0, list.hottest)]?.line ?? 1) && (
                  <>
                    {' '}
                    <a href={expandTemplate(template, file, list.rows[Math.max(0, list.hottest)]?.line ?? 1)!} target="_blank" rel="noopener noreferrer">
                      Open file
                    </a>
                  </>
                )}
                <span role="status" className="src-status">
                  {text?.file === file && text.state === 'loading' && ' · reading the source…'}
                  {text?.file === file && text.state === 'ok' && ` · from ${text.from === 'folder' ? 'the chosen folder' : 'flameview'}`}
                  {text?.file === file && text.state === 'none' && ` · ${text.why}`}
                  {list.truncated && ' · only the first 50,000 lines are shown'}
                  {list.beyondEnd > 0 && ` · ${list.beyondEnd} recorded lines are past the end of this text: is it the file that was built?`}
                </span>
              </>
            }
          />
        )}
      </>
    );
  }
  return (
    <section className="src-panel" aria-label="Source" aria-busy={pending}>
      <div className="ct-bar">
        <label>
          Order{' '}
          <select aria-label="Order of the lines" value={order} onChange={(e) => setSourceOrder(e.currentTarget.value === 'file' ? 'file' : 'hot')}>
            <option value="hot">{comparing ? "Largest change first" : "Hottest first"}</option>
            <option value="file">File order</option>
          </select>
        </label>
        {folderButton}
        {folder && <span className="src-status">{folder.length.toLocaleString('en-US')} files chosen</span>}
      </div>
      {body}
    </section>
  );
}
