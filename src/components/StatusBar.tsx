// Format, event, samples, total weight, and the warnings (a button that shows their list). In a
// comparison the samples and the total weight are those of both runs, A and B, and the change.

import { useMemo } from 'react';
import { warningCounts, type FormatId, type ProfileMeta } from '../core/model/profile';
import { samplesInRange } from '../render/stack-chart-model';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { formatCount, formatDeltaPct, formatNs } from '../format';
import { treeOf } from '../core/query/tree-walks';
import { showEachRecording } from '../controllers/recordings';

const FORMAT_NAMES: Record<FormatId, string> = {
  'perf-script': 'perf script',
  folded: 'folded stacks',
  pprof: 'pprof',
  cpuprofile: 'Chrome/Node .cpuprofile',
  'chrome-trace': 'Chrome trace',
  speedscope: 'speedscope JSON',
  svg: 'flame graph SVG',
  flameview: 'flameview processed recording',
};

export function StatusBar() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const view = useStore((s) => s.view);
  const tree = useStore(currentTree);
  const open = useStore((s) => s.warningsOpen);
  const toggle = useStore((s) => s.toggleWarnings);
  const range = useStore((s) => s.timeRange);
  const compared = useStore((s) => s.recordings.b.snapshot);
  // In a time range the graph shows only its samples: so does the count.
  const inRange = useMemo(() => (snapshot?.samples && range ? samplesInRange(snapshot.samples, range.from, range.to).count : null), [snapshot, range]);
  if (!snapshot || !tree) return null;
  const { meta } = snapshot;
  const total = tree.totalWeight[0];
  const weight = (w: number) => (meta.weightUnit === 'nanoseconds' ? formatNs(w) : formatCount(w));
  const summary = warningSummary(meta);
  const warnings = summary.count;
  // After a transform that drops samples ("Drop samples with …", a focus) the graph shows fewer.
  const shown = tree.totalSamples[0];
  // Several recordings of different formats: each is labelled with its own, not the first's.
  const mixed = new Set(meta.recordingFormats ?? []).size > 1;
  return (
    <footer className="status-bar">
      <span>Format: {mixed ? 'mixed' : FORMAT_NAMES[meta.format]}</span>
      {meta.recordings && <Recordings names={meta.recordings} formats={mixed ? meta.recordingFormats : undefined} roots={Boolean(meta.recordingRoots)} />}
      {meta.event && <span>Event: {meta.event}</span>}
      {compared ? (
        <>
          <Both label="Samples" a={meta.samples} b={compared.meta.samples} format={formatCount} />
          <Both label="Total weight" a={total} b={treeOf(compared, view).totalWeight[0]} format={weight} />
        </>
      ) : inRange === null ? (
        shown === meta.samples ? (
          <span data-testid="status-samples">Samples: {formatCount(meta.samples)}</span>
        ) : (
          <span data-testid="status-samples" title="The samples the transforms keep, of the whole recording's">
            Samples: {formatCount(shown)} of {formatCount(meta.samples)}
          </span>
        )
      ) : (
        <span title="The samples in the selected time range, of the whole recording's">
          Samples: {formatCount(inRange)} in the time range (of {formatCount(meta.samples)})
        </span>
      )}
      {!compared && <span>Total weight: {weight(total)}</span>}
      <button type="button" className="btn btn-small" aria-expanded={open} aria-controls="warnings-list" disabled={warnings === 0} onClick={() => toggle()}>
        {summary.label}
      </button>
      {open && warnings > 0 && (
        <div id="warnings-list" className="warnings" role="region" aria-label="Warnings">
          {meta.skippedLines > 0 && (
            <p>
              {meta.skippedLines === 1 ? '1 unparseable line was skipped.' : `${formatCount(meta.skippedLines)} unparseable lines were skipped.`}
              {meta.skippedLines > meta.warnings.length && meta.warnings.length > 0 && ' The first ones:'}
            </p>
          )}
          <ul>
            {meta.warnings.map((w, i) => (
              <li key={i}>
                {w.line > 0 && <span className="muted">line {w.line}: </span>}
                {w.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </footer>
  );
}

/** The warnings button's count and label, counted as the popover lists them (core's warningCounts). */
function warningSummary(meta: ProfileMeta): { count: number; label: string } {
  const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
  const { skipped, others } = warningCounts(meta);
  if (skipped === 0) return { count: others, label: plural(others, 'warning', 'warnings') };
  return { count: skipped + others, label: plural(skipped, 'line skipped', 'lines skipped') + (others > 0 ? ', ' + plural(others, 'warning', 'warnings') : '') };
}

/** A figure of both runs: "Samples: A 1,234 · B 2,345 (+90.0 %)". */
function Both({ label, a, b, format }: { label: string; a: number; b: number; format: (v: number) => string }) {
  const delta = b - a;
  const change = formatDeltaPct({ a, b, delta, deltaPct: a !== 0 ? (100 * delta) / a : delta === 0 ? 0 : Infinity });
  return (
    <span data-testid={`status-${label === 'Samples' ? 'samples' : 'weight'}`} title={`${label} of the baseline (A) and of the comparison (B)`}>
      {label}: A {format(a)} · B {format(b)} <span className={delta > 0 ? 'grew' : delta < 0 ? 'shrank' : undefined}>({change})</span>
    </span>
  );
}

/** Several recordings opened as one: their names (each with its format when they differ), and whether each is a root frame of its own. */
function Recordings({ names, formats, roots }: { names: readonly string[]; formats?: readonly FormatId[]; roots: boolean }) {
  const labelled = formats ? names.map((n, i) => (formats[i] ? `${n} (${FORMAT_NAMES[formats[i]]})` : n)) : names;
  return (
    <span data-testid="status-recordings" className="status-recordings">
      <span title={labelled.join('\n')}>
        {names.length} recordings: {labelled.join(', ')}
      </span>
      <label>
        <input type="checkbox" checked={roots} onChange={(e) => void showEachRecording(e.target.checked)} /> each as a root frame
      </label>
    </span>
  );
}
