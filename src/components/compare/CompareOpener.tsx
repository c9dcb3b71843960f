// "Compare with…" in the toolbar's ⋯ menu: a file picker that is also a drop target for a
// second recording, or several as one summed comparison, a group of runs (dropping anywhere else
// on the page opens a new baseline instead).

import { useRef, useState, type DragEvent } from 'react';
import { openCompareFiles, openCompareUrl } from '../../controllers/recordings';
import { useStore } from '../../store/store';

export function CompareOpener() {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const open = useStore((s) => s.recordings.b.snapshot !== null);
  const onDrop = (e: DragEvent<HTMLElement>) => {
    e.preventDefault();
    e.stopPropagation(); // not the page-wide drop zone: this one opens the comparison
    setOver(false);
    const files = [...e.dataTransfer.files];
    if (files.length > 0) return void openCompareFiles(files);
    const uri = e.dataTransfer.getData('text/uri-list').split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
    if (uri) void openCompareUrl(uri.trim());
  };
  return (
    <div
      className={`compare-drop${over ? ' over' : ''}`}
      onDragOver={(e) => (e.preventDefault(), e.stopPropagation(), setOver(true))}
      onDragEnter={(e) => (e.preventDefault(), e.stopPropagation())}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="compare-drop"
    >
      <button type="button" className="menu-item" onClick={() => input.current?.click()} title="Open a second recording to compare with this one (or drop it here)">
        {open ? 'Compare with another…' : 'Compare with…'}
      </button>
      <input
        ref={input}
        type="file"
        aria-label="Compare with file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length > 0) void openCompareFiles(files);
          e.target.value = '';
        }}
      />
    </div>
  );
}
