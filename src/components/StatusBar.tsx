// Format, event, samples, total weight, and the warnings (a button that shows their list).

import type { FormatId } from '../core/model/profile';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { formatCount, formatNs } from '../format';

const FORMAT_NAMES: Record<FormatId, string> = {
  'perf-script': 'perf script',
  folded: 'folded stacks',
  pprof: 'pprof',
  cpuprofile: 'Chrome/Node .cpuprofile',
  'chrome-trace': 'Chrome trace',
  speedscope: 'speedscope JSON',
  svg: 'flame graph SVG',
};

export function StatusBar() {
  const snapshot = useStore((s) => s.snapshot);
  const tree = useStore(currentTree);
  const open = useStore((s) => s.warningsOpen);
  const toggle = useStore((s) => s.toggleWarnings);
  if (!snapshot || !tree) return null;
  const { meta } = snapshot;
  const total = tree.totalWeight[0];
  const warnings = meta.warnings.length + (meta.skippedLines > 0 && meta.warnings.length === 0 ? 1 : 0);
  return (
    <footer className="status-bar">
      <span>Format: {FORMAT_NAMES[meta.format]}</span>
      {meta.event && <span>Event: {meta.event}</span>}
      <span>Samples: {formatCount(meta.samples)}</span>
      <span>Total weight: {meta.weightUnit === 'nanoseconds' ? formatNs(total) : formatCount(total)}</span>
      <button type="button" className="btn btn-small" aria-expanded={open} aria-controls="warnings-list" disabled={warnings === 0} onClick={() => toggle()}>
        {warnings} {warnings === 1 ? 'warning' : 'warnings'}
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
