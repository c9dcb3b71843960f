import { useEffect, useState } from 'react';
import { openFiles, openText, openUrl } from '../../controllers/recordings';

/** A full-page drop target: shown while something droppable is dragged over the window. */
export function DropZone() {
  const [over, setOver] = useState(false);
  useEffect(() => {
    // dragenter/dragleave fire for every child crossed; count them to know when we really left.
    let depth = 0;
    const droppable = (e: DragEvent) => {
      const types = e.dataTransfer?.types ?? [];
      return types.includes('Files') || types.includes('text/uri-list') || types.includes('text/plain');
    };
    const onEnter = (e: DragEvent) => {
      if (!droppable(e)) return;
      e.preventDefault();
      depth++;
      setOver(true);
    };
    const onOver = (e: DragEvent) => {
      if (!droppable(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const onDrop = (e: DragEvent) => {
      depth = 0;
      setOver(false);
      const data = e.dataTransfer;
      if (!data) return;
      e.preventDefault();
      // Several files dropped at once open as one graph of their sum.
      const files = Array.from(data.files);
      if (files.length > 0) {
        void openFiles(files);
        return;
      }
      const uri = data.getData('text/uri-list').split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
      if (uri) {
        void openUrl(uri.trim());
        return;
      }
      const text = data.getData('text/plain');
      if (text.trim() !== '') void openText(text);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
  if (!over) return null;
  return (
    <div className="shell-drop" aria-hidden="true">
      <div className="shell-drop-panel">
        <svg width="40" height="40" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 3v12m0 0-5-5m5 5 5-5M4 17v3h16v-3" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <p className="shell-drop-title">Drop to open</p>
        <p className="shell-muted">
          <code>perf script</code> output or folded stacks, plain or <code>.gz</code>
        </p>
      </div>
    </div>
  );
}
