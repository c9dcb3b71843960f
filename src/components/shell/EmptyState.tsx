import { useStore } from '../../store/store';
import { openDemo } from '../../controllers/recordings';
import { openFilePicker } from './OpenControls';

/** Shown when no recording is open: while the first one loads, or after it failed. */
export function EmptyState() {
  const loading = useStore((s) => s.loading);
  if (loading) {
    return (
      <div className="shell-empty" aria-busy="true">
        <p className="shell-muted">Opening {loading.name}…</p>
      </div>
    );
  }
  return (
    <div className="shell-empty">
      <h1>Open a recording</h1>
      <p className="shell-muted">
        Drop a file anywhere on the page, choose one, or paste text with Ctrl+V. flameview reads <code>perf script</code> output,
        folded stacks, pprof, Chrome and Node CPU profiles, speedscope JSON and flamegraph SVGs, plain or gzip-compressed. For a{' '}
        <code>perf.data</code> file, run <code>flameview perf.data</code> (<code>bin/flameview perf.data</code> in a checkout).
      </p>
      <div className="shell-empty-actions">
        <button type="button" className="btn btn-primary" onClick={openFilePicker}>
          Choose a file…
        </button>
        <button type="button" className="btn" onClick={() => void openDemo()}>
          Open the demo
        </button>
      </div>
    </div>
  );
}
