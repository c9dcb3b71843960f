import { useStore } from '../../store/store';
import { openDemo } from '../../controllers/recordings';
import { forgetLink } from '../../controllers/url-sync';
import { linkRestores, localNeeded } from '../../store/url/local-recording';
import type { LocalRecording } from '../../store/types';
import { openFilePicker } from './OpenControls';

/** Shown when no recording is open: while the first one loads, or after it failed. */
export function EmptyState() {
  const loading = useStore((s) => s.recordings.a.loading);
  const awaiting = useStore((s) => s.awaitingLocal);
  if (loading) {
    return (
      <div className="shell-empty" aria-busy="true">
        <p className="shell-muted">Opening {loading.name}…</p>
      </div>
    );
  }
  if (awaiting) return <LinkNeedsFile local={awaiting} />;
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

/**
 * The page was opened with a link made from a local file (or pasted text) and nothing else to
 * open: it says which file the link needs and what opening it restores. Names render as text.
 */
function LinkNeedsFile({ local }: { local: LocalRecording }) {
  const restores = linkRestores(window.location.hash);
  const openInstead = () => {
    // The link's state belongs to its file: the demo starts afresh.
    forgetLink();
    useStore.getState().setAwaitingLocal(null);
    void openDemo();
  };
  return (
    <section className="shell-empty" role="region" aria-label="This link needs its recording">
      <h1>{local.kind === 'paste' ? 'Paste the recording of this link' : `Open ${local.name} to see this link`}</h1>
      <p>{localNeeded(local)}</p>
      {restores.length > 0 && <p className="shell-muted">It holds {listOf(restores)}.</p>}
      <p className="shell-muted">
        {local.kind === 'paste'
          ? 'Paste the text with Ctrl+V (or Paste…); it stays on this computer.'
          : 'Drop it anywhere on the page or choose it: it is read in this browser and never uploaded.'}
      </p>
      <div className="shell-empty-actions">
        {local.kind === 'file' && (
          <button type="button" className="btn btn-primary" onClick={openFilePicker}>
            Choose {local.name}…
          </button>
        )}
        <button type="button" className="btn" onClick={openInstead}>
          Open the demo instead
        </button>
      </div>
    </section>
  );
}

function listOf(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
