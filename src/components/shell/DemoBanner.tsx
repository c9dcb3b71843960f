import { useState } from 'react';
import { openFilePicker } from './OpenControls';
import { useStore } from '../../store/store';

/** Says that the open recording is the bundled demo, and how to open one's own. */
export function DemoBanner() {
  const isDemo = useStore((s) => s.source?.kind === 'demo');
  const [dismissed, setDismissed] = useState(false);
  if (!isDemo || dismissed) return null;
  return (
    <section className="shell-banner" aria-label="Demo recording">
      <p>
        <strong>Demo recording:</strong> a Rust toy compiler profiled with <code>perf record --call-graph dwarf</code>, heavy on inlined
        frames: compare the <em>Functions</em> and <em>Inline frames</em> views.
      </p>
      <div className="shell-banner-actions">
        <button type="button" className="btn" onClick={openFilePicker}>
          Open your recording…
        </button>
        <button type="button" className="btn btn-quiet" onClick={() => setDismissed(true)} aria-label="Hide the demo notice">
          ✕
        </button>
      </div>
    </section>
  );
}
