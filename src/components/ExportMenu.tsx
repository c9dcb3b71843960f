// Export menu: the current view as a standalone interactive SVG (what `flameview svg` writes), the
// flame graph canvas as PNG at device resolution, folded stacks (what `flameview collapse`
// prints), or the whole recording as pprof or processed (what `flameview convert -o X.pb.gz` and
// `-o X.flameview` write), or an HTML report (`flameview html`). The files are made by pure
// helpers in src/controllers/export-files.ts (the whole recording in an export worker,
// recording-file.ts); this component only dispatches.

import { useEffect, useRef, useState } from 'react';
import { downloadBlob, flameCanvasPng } from '../controllers/download';
import { exportFileName, foldedParts, svgParts } from '../controllers/export-files';
import { recordingBlob, reportBlob } from '../controllers/recording-file';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';

type Kind = 'svg' | 'png' | 'folded' | 'pprof' | 'flameview' | 'html';

export function ExportMenu() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const view = useStore((s) => s.view);
  const name = useStore((s) => s.recordings.a.name);
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);

  const run = async (kind: Kind) => {
    setOpen(false);
    if (!snapshot) return;
    const file = exportFileName(name, view, kind);
    try {
      if (kind === 'svg') {
        downloadBlob(new Blob(svgParts(snapshot, view, name ?? 'Flame Graph', currentTree(useStore.getState())), { type: 'image/svg+xml' }), file);
      } else if (kind === 'pprof' || kind === 'flameview') {
        downloadBlob(await recordingBlob(snapshot, kind), file);
      } else if (kind === 'html') {
        const b = useStore.getState().recordings.b;
        const both = [{ snapshot, name: name ?? 'recording' }];
        if (b.snapshot) both.push({ snapshot: b.snapshot, name: b.name ?? 'comparison' });
        downloadBlob(await reportBlob(both), file);
      } else if (kind === 'folded') {
        downloadBlob(new Blob(foldedParts(snapshot, view, currentTree(useStore.getState())), { type: 'text/plain;charset=utf-8' }), file);
      } else {
        const png = await flameCanvasPng();
        if (!png) throw new Error('the flame graph is not drawn yet');
        downloadBlob(png, file);
      }
      setNote(null);
    } catch (e) {
      setNote(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <div className="export-menu" ref={box}>
      <button
        type="button"
        className="menu-item"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={!snapshot}
        onClick={() => setOpen(!open)}
      >
        Export
      </button>
      {open && (
        <div
          role="menu"
          aria-label="Export"
          className="export-items"
        >
          <button type="button" role="menuitem" className="menu-item" autoFocus onClick={() => void run('svg')}>
            SVG (interactive)
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => void run('png')}>
            PNG image
          </button>
          <button type="button" role="menuitem" className="menu-item" onClick={() => void run('folded')}>
            Folded stacks
          </button>
          <button type="button" role="menuitem" className="menu-item" title="The whole recording, both views, for go tool pprof, Pyroscope or Parca" onClick={() => void run('pprof')}>
            pprof (.pb.gz)
          </button>
          <button type="button" role="menuitem" className="menu-item" title="The whole recording, processed: flameview opens it without parsing" onClick={() => void run('flameview')}>
            Processed recording (.flameview)
          </button>
          <button type="button" role="menuitem" className="menu-item" title="One HTML file with the viewer and the recording (and the comparison): opens from disk, no server" onClick={() => void run('html')}>
            HTML report (.html)
          </button>
        </div>
      )}
      {note && (
        <span role="status" className="toolbar-note">
          {note}
        </span>
      )}
    </div>
  );
}
