// The comparison controls above the graphs (one thin row, only while a comparison loads, failed
// or is open): the loading state and errors (role=alert, the baseline stays), and once it is
// open: Side by side / Differential, "% of total" / "absolute", "Ignore process names",
// "Shape by baseline", Close.
// "Compare with…" itself is in the toolbar's ⋯ menu (CompareOpener).

import { closeCompare } from '../../controllers/recordings';
import { useStore } from '../../store/store';

export function CompareBar() {
  const loading = useStore((s) => s.recordings.b.loading);
  const error = useStore((s) => s.recordings.b.error);
  const name = useStore((s) => s.recordings.b.name);
  const open = useStore((s) => s.recordings.b.snapshot !== null);
  const mode = useStore((s) => s.compare.mode);
  const norm = useStore((s) => s.compare.norm);
  const shape = useStore((s) => s.compare.shape);
  const ignoreRoot = useStore((s) => s.compare.ignoreRoot);
  const baseName = useStore((s) => s.recordings.a.name);
  const st = useStore.getState();

  if (!loading && !error && !open) return null;
  return (
    <div className="compare-bar">
      {loading && (
        <span className="compare-loading" role="status">
          Loading the comparison {loading.name}… {loading.samples.toLocaleString('en-US')} samples
        </span>
      )}
      {open && (
        <>
          <span className="compare-names" title={`A: ${baseName ?? ''} · B: ${name ?? ''}`}>
            <b>A</b> {baseName} <b>B</b> {name}
          </span>
          <div className="compare-group" role="group" aria-label="Comparison view">
            <button type="button" aria-pressed={mode === 'side'} onClick={() => st.setCompareMode('side')}>
              Side by side
            </button>
            <button type="button" aria-pressed={mode === 'diff'} onClick={() => st.setCompareMode('diff')}>
              Differential
            </button>
          </div>
          <div className="compare-group" role="radiogroup" aria-label="Normalisation">
            <label>
              <input type="radio" name="compare-norm" checked={norm === 'pct'} onChange={() => st.setCompareNorm('pct')} /> % of total
            </label>
            <label>
              <input type="radio" name="compare-norm" checked={norm === 'abs'} onChange={() => st.setCompareNorm('abs')} /> absolute
            </label>
          </div>
          <label className="compare-switch" title="Match the root frames (process or thread names) of A and B whatever their names, so a renamed binary compares; kept in the link as roots=any">
            <input type="checkbox" checked={ignoreRoot} onChange={(e) => st.setCompareIgnoreRoot(e.target.checked)} /> Ignore process names
          </label>
          {mode === 'diff' && (
            <label className="compare-switch">
              <input type="checkbox" role="switch" checked={shape === 'A'} onChange={(e) => st.setCompareShape(e.target.checked ? 'A' : 'B')} /> Shape by baseline
            </label>
          )}
          <button type="button" onClick={closeCompare}>
            Close comparison
          </button>
        </>
      )}
      {error && (
        <div className="compare-error" role="alert">
          {error}{' '}
          <button type="button" onClick={() => st.dismissError('b')}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
