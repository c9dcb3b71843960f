// The comparison controls above the graphs: "Compare with…" (a file picker that is also a drop
// target), the comparison's loading state and errors (role=alert, the baseline stays), and once
// it is open: Side by side / Differential, "% of total" / "absolute", "Shape by baseline", Close.

import { useRef, useState, type DragEvent } from 'react';
import { closeCompare, openCompareFile, openCompareUrl } from '../../controllers/recordings';
import { useStore } from '../../store/store';

export function CompareBar() {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const loading = useStore((s) => s.compare.loading);
  const error = useStore((s) => s.compare.error);
  const name = useStore((s) => s.compare.name);
  const open = useStore((s) => s.compare.snapshot !== null);
  const mode = useStore((s) => s.compare.mode);
  const norm = useStore((s) => s.compare.norm);
  const shape = useStore((s) => s.compare.shape);
  const baseName = useStore((s) => s.name);
  const st = useStore.getState();

  const onDrop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    e.stopPropagation(); // not the page-wide drop zone: this one opens the comparison
    setOver(false);
    const file = e.dataTransfer.files[0];
    if (file) return void openCompareFile(file);
    const uri = e.dataTransfer.getData('text/uri-list').split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
    if (uri) void openCompareUrl(uri.trim());
  };
  return (
    <div className="compare-bar">
      <div
        className={`compare-drop${over ? ' over' : ''}`}
        onDragOver={(e) => (e.preventDefault(), e.stopPropagation(), setOver(true))}
        onDragEnter={(e) => (e.preventDefault(), e.stopPropagation())}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="compare-drop"
      >
        <button type="button" onClick={() => input.current?.click()} title="Open a second recording to compare with this one (or drop it here)">
          {open ? 'Compare with another…' : 'Compare with…'}
        </button>
        <input
          ref={input}
          type="file"
          aria-label="Compare with file"
          className="visually-hidden"
          tabIndex={-1}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void openCompareFile(f);
            e.target.value = '';
          }}
        />
      </div>
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
          <button type="button" onClick={() => st.dismissCompareError()}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
